package io.shardvault.stash.api;

/**
 * A stash server's occupancy.
 *
 * @param entries stored entries
 * @param bytes the sum of their chunk lengths (what the byte budget counts)
 * @param capacityBytes the byte budget; a PUT that would exceed it is answered {@code STASH_FULL}
 * @param oldestEntryAgeMillis age of the oldest stored entry, 0 when empty
 */
public record StashStats(long entries, long bytes, long capacityBytes, long oldestEntryAgeMillis) {
}
