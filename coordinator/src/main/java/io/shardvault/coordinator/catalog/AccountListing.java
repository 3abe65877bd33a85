package io.shardvault.coordinator.catalog;

import java.util.Objects;

/**
 * An account with what refers to it, as {@code admin accounts list} shows it.
 *
 * @param account the account
 * @param keys how many access keys it holds (disabled ones included)
 * @param buckets how many buckets it owns
 */
public record AccountListing(Account account, int keys, int buckets) {
    public AccountListing {
        Objects.requireNonNull(account, "account");
    }
}
