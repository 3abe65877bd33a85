package io.shardvault.coordinator.repair;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.erasure.AlignedBuffers;
import io.shardvault.common.erasure.ErasureCodec;
import io.shardvault.common.erasure.ErasureCodecs;
import io.shardvault.common.erasure.ErasureLayout;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.data.Vault;
import io.shardvault.coordinator.data.VaultLayout;
import io.shardvault.pod.PodClient;
import io.shardvault.pod.WriteMode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Rebuilds whole shards of one file, stripe by stripe: reads k good chunks of the stripe from the other
 * shards' pods (each verified by its pod against its CRC32C; shards recorded missing at the write are
 * asked last), decodes the targets' chunks and writes each one {@link WriteMode#DURABLE} at its offset,
 * with the CRC32C of the decoded bytes, which is the CRC it was first written with (encoding is
 * deterministic, and decoding yields the encoded bytes).
 *
 * <p>The targets' shard files are deleted first: a pod acknowledges a chunk that matches a stored one
 * (same offset, length and CRC) without writing it, so a chunk whose stored bytes rotted under an intact
 * CRC would stay corrupt. A repair that fails midway leaves a partial shard; its row stays queued and
 * the next attempt deletes and rewrites it again.
 *
 * <p>Blocking: runs on the repair worker's threads. Thread-safe (no state between calls).
 */
final class ShardRebuild {
    private final PodClient pods;
    private final ErasureCodecs codecs;
    private final RateLimiter limiter;
    private final Duration callTimeout;

    ShardRebuild(PodClient pods, ErasureCodecs codecs, RateLimiter limiter, Duration callTimeout) {
        this.pods = pods;
        this.codecs = codecs;
        this.limiter = limiter;
        this.callTimeout = callTimeout;
    }

    /** Rebuilds shards {@code targets} of {@code file} on their pods in {@code vault}; the bytes written. */
    long rebuild(Vault vault, FileRef file, List<Integer> targets) throws IOException, InterruptedException {
        VaultLayout layout = new VaultLayout(new ErasureLayout(file.layout().dataShards(),
                file.layout().parityShards()), file.layout().chunkBytes());
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
        List<CompletableFuture<?>> deletes = new ArrayList<>();
        for (int t : targets) {
            deletes.add(pods.delete(vault.pod(t), new ShardId(vault.vaultId(), file.fileId(), t)));
        }
        for (int i = 0; i < deletes.size(); i++) {
            await(deletes.get(i), "delete of shard " + targets.get(i) + " before its rewrite");
        }
        List<Integer> sources = new ArrayList<>();
        for (int i = 0; i < layout.n(); i++) {
            if (!targets.contains(i) && !file.missingShards().contains(i)) {
                sources.add(i);
            }
        }
        for (int i : file.missingShards()) {
            if (!targets.contains(i) && i >= 0 && i < layout.n()) {
                sources.add(i);
            }
        }
        ByteBuffer block = AlignedBuffers.allocate(layout.n() * layout.chunkBytes());
        ErasureCodec codec = codecs.codec(layout.erasure());
        long written = 0;
        for (long s = 0; s < stripes; s++) {
            written += rebuildStripe(vault, file, layout, codec, block, s, sources, targets);
        }
        return written;
    }

    private long rebuildStripe(Vault vault, FileRef file, VaultLayout layout, ErasureCodec codec, ByteBuffer block,
                               long stripe, List<Integer> sources, List<Integer> targets)
            throws IOException, InterruptedException {
        int n = layout.n();
        int k = layout.k();
        int chunk = layout.chunkLength(file.size(), stripe);
        long offset = layout.shardOffset(stripe);
        ByteBuffer[] chunks = new ByteBuffer[n];
        boolean[] present = new boolean[n];
        int count = 0;
        List<String> failures = new ArrayList<>();
        Iterator<Integer> next = sources.iterator();
        while (count < k) {
            Map<Integer, CompletableFuture<ByteBuf>> wave = new LinkedHashMap<>();
            while (wave.size() < k - count && next.hasNext()) {
                int shard = next.next();
                wave.put(shard, pods.read(vault.pod(shard), new ShardId(vault.vaultId(), file.fileId(), shard),
                        offset, chunk));
            }
            if (wave.isEmpty()) {
                throw new IOException("stripe " + stripe + ": only " + count + " of the " + k
                        + " chunks needed could be read: " + String.join("; ", failures));
            }
            for (Map.Entry<Integer, CompletableFuture<ByteBuf>> read : wave.entrySet()) {
                int shard = read.getKey();
                ByteBuf data;
                try {
                    data = await(read.getValue(), "read of shard " + shard);
                } catch (IOException e) {
                    failures.add(e.getMessage());
                    continue;
                }
                try {
                    if (data.readableBytes() != chunk) {
                        failures.add("shard " + shard + ": " + data.readableBytes() + " bytes, expected " + chunk);
                        continue;
                    }
                    chunks[shard] = block.slice(shard * chunk, chunk);
                    data.getBytes(data.readerIndex(), chunks[shard].duplicate());
                    present[shard] = true;
                    count++;
                } finally {
                    data.release();
                }
            }
        }
        for (int t : targets) {
            chunks[t] = block.slice(t * chunk, chunk);
        }
        codec.decode(chunks, present, chunk);
        limiter.acquire((long) chunk * targets.size());
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (int t : targets) {
            ByteBuf data = Unpooled.copiedBuffer(chunks[t].duplicate());
            writes.add(pods.write(vault.pod(t), new ShardId(vault.vaultId(), file.fileId(), t), offset,
                    Crc32c.of(chunks[t]), WriteMode.DURABLE, data));
        }
        for (int i = 0; i < writes.size(); i++) {
            await(writes.get(i), "durable write of shard " + targets.get(i) + " stripe " + stripe);
        }
        return (long) chunk * targets.size();
    }

    private <T> T await(CompletableFuture<T> f, String what) throws IOException, InterruptedException {
        return Bounded.await(f, callTimeout.multipliedBy(2), what);
    }
}
