package io.shardvault.coordinator.catalog;

import java.time.Instant;
import java.util.Objects;

/**
 * An account: what owns buckets and holds access keys (issue #21). Keys of one account see its buckets;
 * keys of another never do, whatever the accounts are called.
 *
 * <p>A <em>legacy</em> account is one the catalog did not create: each distinct owner string of a key or
 * bucket made before accounts existed (and {@link #BOOTSTRAP_ID}, the coordinator's bootstrap key's owner)
 * is an account whose id and name are that string, so that its keys keep their buckets. It has no row of
 * its own; it exists while something refers to it.
 *
 * @param id the stable id buckets and keys refer to; never the display name for accounts created here
 * @param name the display name; two accounts may share one (the id tells them apart)
 * @param createdAt the leader's time when it was created (for a legacy account, its oldest key or bucket)
 * @param legacy whether it is a legacy account (above)
 */
public record Account(String id, String name, Instant createdAt, boolean legacy) {
    /** The account of the coordinator's bootstrap key ({@code coordinator.accessKey}): id and name. */
    public static final String BOOTSTRAP_ID = "admin";

    public Account {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(createdAt, "createdAt");
    }
}
