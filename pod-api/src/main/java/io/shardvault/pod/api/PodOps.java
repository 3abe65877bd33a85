package io.shardvault.pod.api;

import java.util.Map;

/**
 * The op codes of the pod service on the internal protocol ({@code 0x0201..}). Stable: part of
 * the protocol, never renumbered.
 *
 * <table>
 *   <caption>Requests and responses</caption>
 *   <tr><th>op</th><th>request header</th><th>request payload</th><th>response</th></tr>
 *   <tr><td>WRITE</td><td>ShardId(13), offsetInShard u64, crc32c u32, mode u8 (0 buffered, 1 durable)</td>
 *       <td>the chunk</td><td>empty; CHECKSUM_MISMATCH if the CRC does not match; NOT_RECOVERABLE for a
 *       buffered write the pod could not recover (no assignment holding the shard's slot, or no stash)</td></tr>
 *   <tr><td>READ</td><td>ShardId, offset u64, length u32</td><td>empty</td>
 *       <td>payload: the bytes, every chunk CRC-verified; CORRUPT on a mismatch, NOT_FOUND if absent</td></tr>
 *   <tr><td>DELETE</td><td>ShardId</td><td>empty</td><td>header: existed u8; idempotent</td></tr>
 *   <tr><td>LIST</td><td>hasAfter u8, [ShardId], limit u32</td><td>empty</td>
 *       <td>header: hasNext u8, [next ShardId]; payload: count x ShardId, in key order</td></tr>
 *   <tr><td>STATS</td><td>empty</td><td>empty</td>
 *       <td>header: unflushedBytes u64, unflushedShards u32, queueDepth u64, oldestAgeMillis u64, tomes u32,
 *       usableBytes u64, assignment u64 (the {@link PodAssignment#fingerprint()}, 0 when unassigned),
 *       failedTomes u32, then failedTomes x (tome u32, failedAtMillis u64, recorded u8, directory length u16,
 *       directory UTF-8, reason length u16, reason UTF-8), hasScrub u8, [scrub: pass u64, inPass u8,
 *       passStartMillis u64, hasPosition u8, [position ShardId], passFiles u64, passBytes u64, lastEndMillis u64,
 *       lastDurationMillis u64, lastFiles u64, lastBytes u64, lastCorrupt u64, lastMissing u64, bytesPerSecond u64,
 *       heldFindings u32] (see {@link FailedTome}, {@link ScrubStatus}; fields appended later are
 *       absent in an older pod's answer: read as none, and a count without its details as that many unknown
 *       tomes)</td></tr>
 *   <tr><td>RETRY_PURGES</td><td>empty</td><td>empty</td>
 *       <td>header: hasStash u8; the purge sender retries at once (an operator's action)</td></tr>
 *   <tr><td>ASSIGN</td><td>slots u16, slots x (vaultId u32, shardIndex u8), servers u16,
 *       servers x (host length u16, host UTF-8, port u16)</td><td>empty</td>
 *       <td>empty, once the {@link PodAssignment} is persisted; an identical one is a no-op; CONFLICT when it
 *       would change the stash servers (or drop a slot) while the pod has unflushed shards or undelivered
 *       purges</td></tr>
 *   <tr><td>SCRUB_FINDINGS</td><td>ackThrough u64 (0: none), limit u32 (1..10,000)</td><td>empty</td>
 *       <td>the pod first forgets (durably) its findings numbered up to ackThrough, then answers header:
 *       held u32 (findings it still holds); payload: up to limit x (seq u64, ShardId, kind u8 (0 corrupt,
 *       1 missing), foundAtMillis u64), oldest first. A finding stays until acknowledged, so a coordinator
 *       that dies between taking and enqueueing it loses nothing: the next one is given it again</td></tr>
 *   <tr><td>LIST_AGED</td><td>as LIST</td><td>empty</td>
 *       <td>header: hasNext u8, [next ShardId]; payload: count x (ShardId, ageMillis u64), in key order: each
 *       shard file's age by the pod's own wall clock (now less its modification time), for the orphan collector</td></tr>
 * </table>
 */
public final class PodOps {
    public static final int WRITE = 0x0201;
    public static final int READ = 0x0202;
    public static final int DELETE = 0x0203;
    public static final int LIST = 0x0204;
    public static final int STATS = 0x0205;
    public static final int RETRY_PURGES = 0x0206;
    public static final int ASSIGN = 0x0207;
    public static final int SCRUB_FINDINGS = 0x0208;
    public static final int LIST_AGED = 0x0209;

    /** The largest page a LIST answers. */
    public static final int MAX_LIST_LIMIT = 10_000;
    /** The most findings a SCRUB_FINDINGS answers. */
    public static final int MAX_SCRUB_FINDINGS_LIMIT = 10_000;

    /** Readable names for the RPC meters' {@code op} tag ({@link io.shardvault.common.rpc.RpcMetrics}). */
    public static final Map<Integer, String> METRIC_NAMES = Map.of(WRITE, "pod.write", READ, "pod.read",
            DELETE, "pod.delete", LIST, "pod.list", STATS, "pod.stats", RETRY_PURGES, "pod.retry.purges",
            ASSIGN, "pod.assign", SCRUB_FINDINGS, "pod.scrub.findings", LIST_AGED, "pod.list.aged");

    private PodOps() {
    }
}
