package io.shardvault.coordinator.data;

import io.netty.buffer.ByteBuf;
import io.shardvault.common.ShardvaultException;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The coordinator's write, read and delete paths over the vaults' pods and the stash.
 *
 * <h2>Write</h2>
 * Takes a file id, cuts the body into stripes, encodes each into n chunks (each with its CRC32C)
 * and sends chunk i to pod i, stripes in parallel up to a bound, so memory per upload is a few
 * stripes and a slow pod slows the body's producer. A file of at most {@code stash.threshold}
 * bytes, while the stash is healthy, goes to the pods in buffered mode and to the stash (synced)
 * at once, and needs the write quorum on both sides; any other file goes to the pods in durable
 * mode. When the stash cannot take a small file (full, unreachable) it is written again, durably,
 * under a new id. A body of unknown length ({@link ByteSource#length()} -1) is small only if it
 * ended within its first stripe. The returned {@link StoredFile} lists the shards that missed the quorum; the
 * caller commits it to the catalog, and only then answers its client.
 *
 * <h2>Read</h2>
 * Maps a byte range to stripes and chunks, reads the needed data chunks first, and when a pod is
 * down, answers CORRUPT or is slower than a hedge delay derived from observed latency, reads other
 * shards (parity, or the stash's copy of a small file) and decodes. Every chunk used was verified
 * against its CRC32C (by the pod before sending, by the stash client on receipt).
 *
 * <h2>Delete</h2>
 * Deletes a file's shards from every pod (and its stash copies), idempotently, retrying each until
 * done or out of attempts. Call it after the catalog dropped the file. A repair that made shards of a
 * stashed file durable on their pods purges their stash copies ({@link #purgeStashCopies}).
 *
 * <p>Implementations are thread-safe. Every failure arrives through the returned future; where the data
 * path decided it, as a {@link ShardvaultException} whose code a caller maps to its answer: {@code
 * UNAVAILABLE} when too few pods (or stash servers) answered for the write quorum or for a decode, {@code
 * NOT_FOUND} for an unknown vault, {@code BAD_REQUEST} for a body shorter or longer than declared, {@code
 * CORRUPT} for a chunk of the wrong length. The message names the file, the stripe and, per shard, why it
 * was unusable.
 */
public interface DataPath extends AutoCloseable {

    /** Writes a new file from {@code body} into the vault the directory chooses. */
    CompletableFuture<StoredFile> write(ByteSource body);

    /**
     * The bytes {@code [offset, offset + length)} of {@code file}.
     *
     * @throws IllegalArgumentException if the range is not inside the file
     */
    FileContent read(StoredFile file, long offset, long length);

    /** Deletes the shards of {@code file}; idempotent. */
    CompletableFuture<Void> delete(StoredFile file);

    /**
     * Purges the stash copies of shards {@code shards} of a {@link StoredFile#stashed() stashed} file
     * (idempotent; nothing for a file that is not stashed, or without a stash). For a shard that a
     * repair wrote durably to its pod: its pod never had a buffered write of it to flush, so no pod
     * purges that copy. Call it only after the pod acknowledged the durable write of every one of
     * {@code shards}: until then the copy may be the shard's only durable one. Waits for this data
     * path's shard writes of the file still on their way, so no late stash copy lands after the purge.
     */
    CompletableFuture<Void> purgeStashCopies(StoredFile file, List<Integer> shards);

    /**
     * A reused stripe buffer of {@code capacity} bytes, 64-byte aligned (an {@code ErasureCodec} chunk
     * buffer), from the pool the data path encodes and decodes in; its contents are undefined. The
     * caller owns its one reference and releases it once nothing reads it any more.
     */
    ByteBuf stripeBuffer(int capacity);

    /** Stops timers and background work; calls in flight fail or finish. */
    @Override
    void close();
}
