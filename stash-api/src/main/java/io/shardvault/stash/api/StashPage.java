package io.shardvault.stash.api;

import io.shardvault.common.ShardId;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One page of a pod slot's entries, in key order (by fileId).
 *
 * @param entries the entries of this page, possibly fewer than asked for
 * @param next where the next page starts (exclusive), or empty when this page reached the end of
 *             the slot; pass it as {@code after} to the next {@link StashClient#list} call
 */
public record StashPage(List<StashEntryInfo> entries, Optional<ShardId> next) {
    public StashPage {
        entries = List.copyOf(entries);
        Objects.requireNonNull(next, "next");
    }
}
