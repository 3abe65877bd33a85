package io.shardvault.coordinator.repair;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.erasure.ErasureCodec;
import io.shardvault.common.erasure.ErasureCodecs;
import io.shardvault.common.erasure.ErasureStripes;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.data.DataPath;
import io.shardvault.coordinator.data.FileContent;
import io.shardvault.coordinator.data.StoredFile;
import io.shardvault.coordinator.data.Vault;
import io.shardvault.coordinator.data.VaultLayout;
import io.shardvault.coordinator.store.StoredFiles;
import io.shardvault.pod.api.PodClient;
import io.shardvault.pod.api.WriteMode;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

/**
 * Rebuilds whole shards of one file, stripe by stripe: reads the stripe's bytes through the
 * {@link DataPath} (which reads any k good chunks, CRC-checked, and decodes; the targets are passed
 * as recorded missing, so it asks them only when too few others answer), computes the parity targets
 * again and writes each target's chunk {@link WriteMode#DURABLE} at its offset. Encoding is
 * deterministic, so the chunk and its CRC32C are those of the file's first write.
 *
 * <p>The targets' shard files are deleted first: a pod acknowledges a chunk that matches a stored one
 * (same offset, length and CRC) without writing it, so a chunk whose stored bytes rotted under an intact
 * CRC would stay corrupt. A repair that fails midway leaves a partial shard; its row stays queued and
 * the next attempt deletes and rewrites it again.
 *
 * <p>A stashed file's repaired shards then lose their stash copies ({@link DataPath#purgeStashCopies}), only
 * after every durable write was acknowledged: a pod that missed a stashed write (down, failed, or too slow
 * for the straggler grace) never buffered that chunk, so its flusher never purges the copy, which until
 * this repair kept the chunk durable and readable.
 *
 * <p>Every delete and write is sent only while {@code leads} holds (a {@link LeaderTenure} in a coordinator):
 * a coordinator that lost the catalog's lead stops before its next pod call, so it cannot delete a shard the
 * new leader has just rewritten.
 *
 * <p>Blocking: runs on the repair worker's threads. Thread-safe (no state between calls).
 */
final class ShardRebuild {
    private final DataPath data;
    private final PodClient pods;
    private final ErasureCodecs codecs;
    private final RateLimiter limiter;
    private final Duration callTimeout;
    private final BooleanSupplier leads;

    ShardRebuild(DataPath data, PodClient pods, ErasureCodecs codecs, RateLimiter limiter, Duration callTimeout,
                 BooleanSupplier leads) {
        this.data = data;
        this.pods = pods;
        this.codecs = codecs;
        this.limiter = limiter;
        this.callTimeout = callTimeout;
        this.leads = leads;
    }

    /** Fails unless this coordinator may still change shards on pods; called before each delete or write. */
    private void stillLeading(String before) throws IOException {
        if (!leads.getAsBoolean()) {
            throw new IOException("this coordinator no longer leads the catalog: stopped before the " + before);
        }
    }

    /** Rebuilds shards {@code targets} of {@code ref} on their pods in {@code vault}; the bytes written. */
    long rebuild(Vault vault, FileRef ref, List<Integer> targets) throws IOException, InterruptedException {
        StoredFile file = withMissing(StoredFiles.fromRef(ref), targets);
        VaultLayout layout = file.layout();
        if (layout.n() != vault.layout().n()) {
            throw new IOException("file " + vault.vaultId() + "/" + file.fileId() + " has layout " + layout
                    + " but its vault has " + vault.layout().n() + " pods");
        }
        for (int t : targets) {
            if (t < 0 || t >= layout.n()) {
                throw new IOException("shard " + t + " is outside layout " + layout);
            }
        }
        long stripes = layout.stripeCount(file.size());
        if (stripes == 0 || targets.isEmpty()) {
            return 0;
        }
        stillLeading("deletes of shards " + targets + " of file " + vault.vaultId() + "/" + file.fileId());
        List<CompletableFuture<?>> deletes = new ArrayList<>();
        for (int t : targets) {
            deletes.add(pods.delete(vault.pod(t), new ShardId(vault.vaultId(), file.fileId(), t)));
        }
        for (int i = 0; i < deletes.size(); i++) {
            await(deletes.get(i), "delete of shard " + targets.get(i) + " before its rewrite");
        }
        ByteBuf lease = data.stripeBuffer(layout.n() * layout.chunkBytes());
        ErasureCodec codec = codecs.codec(layout.erasure());
        long written = 0;
        try {
            ByteBuffer block = lease.nioBuffer(0, layout.n() * layout.chunkBytes());
            for (long s = 0; s < stripes; s++) {
                written += rebuildStripe(vault, file, codec, block, s, targets);
            }
        } finally {
            lease.release();
        }
        if (file.stashed()) {
            // Durable on the pods now; a stash copy a pod never buffered (it missed the write) no pod
            // purges. A purge that fails fails the repair: the row stays queued and the next attempt purges.
            await(data.purgeStashCopies(file, targets), "purge of the stash copies of shards " + targets);
        }
        return written;
    }

    /**
     * Copies shard {@code shard} of {@code ref} from the pod at {@code from} onto its pod in {@code vault}
     * (a decommission: {@code from} is the pod being retired, {@code vault} has its replacement): the
     * target's shard file is deleted first (as in {@link #rebuild}), then chunk by chunk, in order, each
     * read CRC-verified by the source and written {@link WriteMode#DURABLE} (its CRC checked again on
     * arrival) only after the one before was acknowledged, throttled as a rebuild. Fails when the source
     * cannot give a chunk (missing, cut short, corrupt): the target may then hold a partial shard, which
     * a {@link #rebuild} deletes and rewrites. Returns the bytes written.
     */
    long copy(Vault vault, FileRef ref, int shard, InetSocketAddress from) throws IOException, InterruptedException {
        VaultLayout layout = StoredFiles.fromRef(ref).layout();
        long stripes = layout.stripeCount(ref.size());
        if (stripes == 0) {
            return 0;
        }
        ShardId id = new ShardId(vault.vaultId(), ref.fileId(), shard);
        InetSocketAddress to = vault.pod(shard);
        stillLeading("delete of shard " + id + " before its copy");
        await(pods.delete(to, id), "delete of shard " + shard + " before its copy");
        long written = 0;
        for (long s = 0; s < stripes; s++) {
            int length = layout.chunkLength(ref.size(), s);
            long offset = layout.shardOffset(s);
            limiter.acquire(length);
            ByteBuf chunk = await(pods.read(from, id, offset, length), "read of shard " + shard + " stripe " + s
                    + " from " + from);
            if (chunk.readableBytes() != length) {
                int got = chunk.readableBytes();
                chunk.release();
                throw new IOException("read of shard " + shard + " stripe " + s + " from " + from + " gave " + got
                        + " bytes, not " + length);
            }
            try {
                stillLeading("write of shard " + id + " stripe " + s);
            } catch (IOException e) {
                chunk.release();
                throw e;
            }
            await(pods.write(to, id, offset, Crc32c.of(chunk), WriteMode.DURABLE, chunk),
                    "durable write of shard " + shard + " stripe " + s);
            written += length;
        }
        return written;
    }

    /** The file with {@code targets} added to its recorded-missing shards: read only as a last resort. */
    private static StoredFile withMissing(StoredFile file, List<Integer> targets) {
        TreeSet<Integer> missing = new TreeSet<>(file.missingShards());
        missing.addAll(targets);
        return new StoredFile(file.vaultId(), file.fileId(), file.size(), file.layout(), List.copyOf(missing),
                file.stashed());
    }

    private long rebuildStripe(Vault vault, StoredFile file, ErasureCodec codec, ByteBuffer block, long stripe,
                               List<Integer> targets) throws IOException, InterruptedException {
        VaultLayout layout = file.layout();
        int k = layout.k();
        int n = layout.n();
        int chunk = layout.chunkLength(file.size(), stripe);
        int length = layout.stripeLength(file.size(), stripe);
        // The data chunks lie back to back in the block: the stripe's bytes, then zeros (the format's padding).
        // Parity targets need every data chunk; data targets only their own, which the read decodes: the
        // chunks between them come free with the read, and no others are copied into the block.
        boolean parity = targets.stream().anyMatch(t -> t >= k);
        int from = parity ? 0 : Collections.min(targets) * chunk;
        int to = parity ? k * chunk : (Collections.max(targets) + 1) * chunk;
        int readTo = Math.min(to, length);
        if (readTo > from) {
            readStripe(file, stripe * layout.stripeBytes() + from, readTo - from,
                    block.duplicate().position(from).limit(readTo));
        }
        int padFrom = Math.max(from, length);
        if (to > padFrom) {
            block.duplicate().position(padFrom).limit(to).put(ByteBuffer.allocate(to - padFrom));
        }
        ByteBuffer[] chunks = ErasureStripes.slices(block.duplicate().limit(n * chunk), n, chunk);
        computeParityTargets(codec, chunks, targets, chunk);
        limiter.acquire((long) chunk * targets.size());
        long offset = layout.shardOffset(stripe);
        stillLeading("writes of shards " + targets + " of file " + vault.vaultId() + "/" + file.fileId() + " stripe "
                + stripe);
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (int t : targets) {
            writes.add(pods.write(vault.pod(t), new ShardId(vault.vaultId(), file.fileId(), t), offset,
                    Crc32c.of(chunks[t]), WriteMode.DURABLE, Unpooled.copiedBuffer(chunks[t].duplicate())));
        }
        for (int i = 0; i < writes.size(); i++) {
            await(writes.get(i), "durable write of shard " + targets.get(i) + " stripe " + stripe);
        }
        return (long) chunk * targets.size();
    }

    /**
     * Computes the parity chunks among {@code targets} from the stripe's data chunks, and no other: a data
     * target is already in the block, as read, and each parity chunk is its own row of the code (a decode
     * whose only missing chunks are those parity ones), so a lost data pod costs no coding at all here.
     */
    private static void computeParityTargets(ErasureCodec codec, ByteBuffer[] chunks, List<Integer> targets,
                                             int chunk) {
        int k = codec.layout().k();
        ByteBuffer[] wanted = new ByteBuffer[chunks.length];
        boolean[] present = new boolean[chunks.length];
        boolean any = false;
        for (int i = 0; i < chunks.length; i++) {
            present[i] = i < k;
            if (i < k || targets.contains(i)) {
                wanted[i] = chunks[i];
                any |= i >= k;
            }
        }
        if (any) {
            codec.decode(wanted, present, chunk);
        }
    }

    /** Reads {@code length} bytes of the file from {@code offset} into {@code into}, which has room for exactly them. */
    private void readStripe(StoredFile file, long offset, int length, ByteBuffer into)
            throws IOException, InterruptedException {
        try (FileContent content = data.read(file, offset, length)) {
            while (into.hasRemaining()) {
                ByteBuf piece = await(content.read(), "read of stripe at " + offset);
                if (piece == null) {
                    throw new IOException("file " + file.vaultId() + "/" + file.fileId() + " ended "
                            + into.remaining() + " bytes early at " + offset);
                }
                try {
                    if (piece.readableBytes() > into.remaining()) {
                        throw new IOException("read of stripe at " + offset + " returned more bytes than asked");
                    }
                    // getBytes copies a composite piece component by component; nioBuffer() would merge it first.
                    int n = piece.readableBytes();
                    piece.getBytes(piece.readerIndex(), into.duplicate().limit(into.position() + n));
                    into.position(into.position() + n);
                } finally {
                    piece.release();
                }
            }
        }
    }

    private <T> T await(CompletableFuture<T> f, String what) throws IOException, InterruptedException {
        return Bounded.await(f, callTimeout.multipliedBy(2), what);
    }
}
