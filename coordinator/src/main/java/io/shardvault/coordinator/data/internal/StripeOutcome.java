package io.shardvault.coordinator.data.internal;

/**
 * What one stripe's fan-out achieved when it was decided. Arrays are indexed by shard and owned by
 * the outcome (copies).
 *
 * @param podOk       pod i acknowledged its chunk
 * @param secured     chunk i is secured: the stash synced it, or its pod wrote it durably (all false when the
 *                    stripe did not go to the stash)
 * @param causes      why shard i failed, or null
 * @param podQuorum   at least the write quorum of pods acknowledged
 * @param stashQuorum at least the write quorum of chunks secured (true when not stashing)
 * @param stashFull   a stash server answered STASH_FULL for some chunk (the fallback's reason)
 */
record StripeOutcome(boolean[] podOk, boolean[] secured, String[] causes, boolean podQuorum, boolean stashQuorum,
                     boolean stashFull) {
}
