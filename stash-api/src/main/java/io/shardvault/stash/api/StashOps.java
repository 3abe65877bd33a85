package io.shardvault.stash.api;

import java.util.Map;

/**
 * The op codes of the stash service on the internal protocol, and the layout of each op's header
 * and payload. The numbers and layouts are part of the protocol: stable forever; a new field means
 * a new op. All integers are big-endian; a {@code ShardId} is its 13-byte
 * {@link io.shardvault.common.ShardId#writeTo encoding}; an <em>entry info</em> is 37 bytes:
 * <pre>
 *  ShardId(13) | offsetInShard i64 | length i32 | crc32c i32 | writtenAtMillis i64
 * </pre>
 *
 * <table>
 *   <caption>Requests and responses</caption>
 *   <tr><th>op</th><th>request header</th><th>request payload</th><th>response header</th><th>response payload</th></tr>
 *   <tr><td>PUT</td><td>ShardId | offsetInShard i64 | crc32c i32</td><td>the chunk</td><td>empty</td><td>empty</td></tr>
 *   <tr><td>PUT_MANY</td><td>count u16 | count x (ShardId | offsetInShard i64 | crc32c i32 | length i32)</td>
 *       <td>the chunks back to back, in header order</td>
 *       <td>count u16 | count x (stored u8 | [code u16 | messageLength u16 | message UTF-8])</td><td>empty</td></tr>
 *   <tr><td>GET</td><td>ShardId</td><td>empty</td><td>entry info</td><td>the chunk</td></tr>
 *   <tr><td>PURGE</td><td>empty</td><td>count i32 | count x ShardId</td><td>deleted i32</td><td>empty</td></tr>
 *   <tr><td>LIST</td><td>vaultId i32 | shardIndex u8 | limit i32 | hasAfter u8 | [after ShardId]</td><td>empty</td>
 *       <td>hasNext u8 | [next ShardId]</td><td>count i32 | count x entry info</td></tr>
 *   <tr><td>STATS</td><td>empty</td><td>empty</td>
 *       <td>entries i64 | bytes i64 | capacityBytes i64 | oldestEntryAgeMillis i64</td><td>empty</td></tr>
 * </table>
 *
 * <p>PUT_MANY stores each chunk as a PUT would, independently (one may fail {@code STASH_FULL} while
 * the others are stored); its answer comes once every chunk is durable or failed, and says which,
 * with each failure's error code and message. At most {@link #MAX_PUT_MANY_CHUNKS} chunks.
 *
 * <p>Errors travel as error frames: {@code STASH_FULL} and {@code CHECKSUM_MISMATCH} (PUT),
 * {@code NOT_FOUND} and {@code CORRUPT} (GET), {@code BAD_REQUEST} for malformed requests,
 * {@code BUSY} when the commit queue is full.
 */
public final class StashOps {
    /** Store a chunk; answered once it is durable (WAL synced). */
    public static final int PUT = 0x0101;
    /** Read one entry, CRC-checked before it is sent. */
    public static final int GET = 0x0102;
    /** Delete a batch of entries; idempotent, unknown ids are fine. */
    public static final int PURGE = 0x0103;
    /** One page of the entries of one pod slot, in key order. */
    public static final int LIST = 0x0104;
    /** Occupancy figures. */
    public static final int STATS = 0x0105;
    /**
     * Store several chunks in one call, each answered on its own once durable: a stripe's chunks
     * for one stash server share one request and, usually, one group commit.
     */
    public static final int PUT_MANY = 0x0106;
    /** Most chunks in one PUT_MANY; its header stays far below the protocol's 64 KiB header limit. */
    public static final int MAX_PUT_MANY_CHUNKS = 1024;

    /** Readable names for the RPC meters' {@code op} tag ({@link io.shardvault.common.rpc.RpcMetrics}). */
    public static final Map<Integer, String> METRIC_NAMES = Map.of(PUT, "stash.put", GET, "stash.get",
            PURGE, "stash.purge", LIST, "stash.list", STATS, "stash.stats", PUT_MANY, "stash.putMany");

    private StashOps() {
    }

    /** A name for logs and metric tags; {@code "op-0x..."} for an unknown code. */
    public static String name(int op) {
        return switch (op) {
            case PUT -> "put";
            case GET -> "get";
            case PURGE -> "purge";
            case LIST -> "list";
            case STATS -> "stats";
            case PUT_MANY -> "putMany";
            default -> String.format("op-0x%04x", op);
        };
    }
}
