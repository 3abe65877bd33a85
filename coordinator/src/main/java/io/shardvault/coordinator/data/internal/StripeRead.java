package io.shardvault.coordinator.data.internal;


import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.ShardvaultException;
import io.shardvault.coordinator.data.StoredFile;
import io.shardvault.coordinator.data.Vault;
import io.shardvault.coordinator.data.VaultLayout;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Reads the bytes {@code [from, to)} of one stripe (stripe-relative). First the data chunks that
 * hold them, from their pods, in parallel. A chunk that fails (pod down, CORRUPT, NOT_FOUND,
 * timeout) is replaced by the stash's copy when the file was stashed, else by enough other chunks
 * (parity first) to decode from any k; chunks still missing after the hedge delay are hedged the
 * same way. Whichever completes first wins: all wanted data chunks, or any k chunks, then decoded.
 * Shards the catalog recorded missing (at the file's write) are asked last, only when too few others
 * answer: a repair may have rebuilt them since.
 *
 * <p>A chunk a pod answers {@code CORRUPT} or {@code NOT_FOUND} for is reported to
 * {@link io.shardvault.coordinator.data.DamagedShards} (for repair) and read around, never waited for.
 *
 * <p>A read that cannot gather k chunks fails {@code UNAVAILABLE} (503 at the S3 edge: retry later) when the
 * chunks that failed for any reason but {@code CORRUPT} (a pod down, a timeout, a refusal, a shard not found)
 * would make up k with those read, and {@code CORRUPT} (500) when too many are corrupt for a retry to help.
 * A shard not found counts as one that may return: it is also what a file looks like when it was released
 * and reaped while being read (a GET racing an overwrite), and a retry of the GET reads the key's new version.
 *
 * <p>Every chunk is checked against its stored CRC32C before it is used: pods verify each chunk
 * before answering (CORRUPT otherwise) and the stash client checks the stash's CRC on receipt.
 *
 * <p>Chunks are kept as they arrived and the result is made of slices of them: no copy. Only a
 * decode copies, the chunks present into one aligned buffer from {@link StripeBuffers} (the codec
 * needs aligned direct memory), and the result is then made of slices of that buffer.
 *
 * <p>Thread-safe; state guarded by {@code this}.
 */
final class StripeRead {
    /** One place a chunk can come from. */
    private record Source(int shard, boolean stash) {
    }

    private final ShardDataPath ctx;
    private final Vault vault;
    private final StoredFile file;
    private final VaultLayout layout;
    private final long stripe;
    private final int from;
    private final int to;
    private final int chunk;
    private final int firstWanted;
    private final int lastWanted;
    private final boolean stashable;
    private final long startNanos = System.nanoTime();
    private final CompletableFuture<ByteBuf> result = new CompletableFuture<>();

    /** The chunks that arrived, owned here until the result takes them or the read ends. */
    private final ByteBuf[] chunks;
    private final boolean[] present;
    private final boolean[] asked;
    private final Set<Integer> dead = new HashSet<>();
    private final Deque<Source> backlog = new ArrayDeque<>();
    private final List<String> failures = new ArrayList<>();
    /** Shards that failed for a reason that may pass: their pod (or stash server) down, slow, refusing, not found. */
    private final Set<Integer> mayReturn = new HashSet<>();
    private int presentCount;
    private int outstanding;

    StripeRead(ShardDataPath ctx, Vault vault, StoredFile file, long stripe, int from, int to) {
        this.ctx = ctx;
        this.vault = vault;
        this.file = file;
        this.layout = file.layout();
        this.stripe = stripe;
        this.from = from;
        this.to = to;
        this.chunk = layout.chunkLength(file.size(), stripe);
        this.firstWanted = from / chunk;
        this.lastWanted = (to - 1) / chunk;
        this.stashable = file.stashed() && ctx.placement != null && layout.stripeCount(file.size()) == 1;
        int n = layout.n();
        this.chunks = new ByteBuf[n];
        this.present = new boolean[n];
        this.asked = new boolean[n];
    }

    CompletableFuture<ByteBuf> start() {
        synchronized (this) {
            // Parity first (it decodes anything), then the data chunks not wanted; recorded-missing shards last.
            int recentlySlow = 0;
            List<Integer> later = new ArrayList<>();
            for (int i = layout.k(); i < layout.n(); i++) {
                later.add(i);
            }
            for (int i = 0; i < layout.k(); i++) {
                if (i < firstWanted || i > lastWanted) {
                    later.add(i);
                }
            }
            for (int i : later) {
                if (!file.missingShards().contains(i)) {
                    backlog.add(new Source(i, false));
                }
            }
            for (int i : file.missingShards()) {
                if (i >= 0 && i < layout.n()) {
                    backlog.add(new Source(i, false));
                }
            }
            boolean[] slow = ctx.slowPods.slowAmong(vault.pods());
            for (int i = firstWanted; i <= lastWanted; i++) {
                if (file.missingShards().contains(i)) {
                    failures.add("shard " + i + ": recorded missing");
                    dead.add(i);
                    replace(i);
                } else if (slow[i]) {
                    // Asked too, in case it recovered, but not waited for: enough others are read at once.
                    launch(new Source(i, false));
                    recentlySlow++;
                } else {
                    ctx.slowPods.waitedFor(vault.pod(i));
                    launch(new Source(i, false));
                }
            }
            if (recentlySlow > 0) {
                expand(recentlySlow);
            }
            check();
        }
        if (!result.isDone()) {
            try {
                ctx.timer.schedule(this::hedge, ctx.readLatency.hedgeDelayNanos(), TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.RejectedExecutionException closed) {
                // The data path is closing; the reads in flight decide.
            }
        }
        return result;
    }

    private void launch(Source source) {
        int shard = source.shard();
        // A stash copy tried does not count: its pod may still be asked (a recorded-missing shard, asked last).
        asked[shard] |= !source.stash();
        outstanding++;
        ShardId id = new ShardId(vault.vaultId(), file.fileId(), shard);
        long sent = System.nanoTime();
        CompletableFuture<ByteBuf> read = source.stash()
                ? ctx.stash.get(ctx.stashFor(vault.vaultId(), shard), id).thenApply(entry -> {
                    ByteBuf data = entry.data().retain();
                    entry.close();
                    return data;
                })
                : ctx.pods.read(vault.pod(shard), id, layout.shardOffset(stripe), chunk);
        ctx.onWorkers(read, (data, failure) -> onChunk(source, sent, data, failure));
    }

    private synchronized void onChunk(Source source, long sentNanos, ByteBuf data, Throwable failure) {
        outstanding--;
        int shard = source.shard();
        // Reported even when the stripe was done without it (hedged around a slow pod): it is damage all the same.
        ErrorCode code = failure == null || source.stash() ? null : StripeFanOut.code(failure);
        if (code == ErrorCode.CORRUPT || code == ErrorCode.NOT_FOUND) {
            ctx.damaged.report(file, shard, code);
        }
        if (result.isDone()) {
            if (data != null) {
                data.release();
            }
            return;
        }
        if (failure == null && data.readableBytes() != chunk) {
            failure = new ShardvaultException(ErrorCode.CORRUPT, data.readableBytes() + " bytes, expected " + chunk);
        }
        if (failure != null) {
            if (data != null) {
                data.release();
            }
            ctx.metrics.chunkFailures.increment();
            failures.add("shard " + shard + (source.stash() ? " (stash)" : "") + ": "
                    + StripeFanOut.describe(failure));
            if (!corrupt(failure)) {
                mayReturn.add(shard);
            }
            if (!present[shard]) {
                dead.add(shard);
                replace(shard);
            }
        } else {
            if (!source.stash()) {
                ctx.readLatency.record(System.nanoTime() - sentNanos);
            }
            if (!present[shard]) {
                chunks[shard] = data;
                present[shard] = true;
                presentCount++;
            } else {
                data.release();
            }
        }
        check();
    }

    /** Shard {@code shard} failed: try its stash copy, else widen the read to a decodable set. */
    private void replace(int shard) {
        if (stashable && dead.contains(shard) && !stashAsked.contains(shard)) {
            stashAsked.add(shard);
            launch(new Source(shard, true));
            return;
        }
        expand(0);
    }

    private final Set<Integer> stashAsked = new HashSet<>();

    /** Launches reads until {@code k + extra} chunks are present or on the way. */
    private void expand(int extra) {
        while (presentCount + outstanding < layout.k() + extra && !backlog.isEmpty()) {
            Source next = backlog.poll();
            if (!asked[next.shard()] || next.stash()) {
                launch(next);
            }
        }
    }

    private synchronized void hedge() {
        if (result.isDone()) {
            return;
        }
        int slow = 0;
        for (int i = firstWanted; i <= lastWanted; i++) {
            if (!present[i] && !dead.contains(i)) {
                slow++;
            }
        }
        if (slow > 0) {
            ctx.metrics.hedges.increment();
            for (int i = firstWanted; i <= lastWanted; i++) {
                if (!present[i] && !dead.contains(i)) {
                    ctx.slowPods.late(vault.pod(i));
                }
            }
            expand(slow);
        }
    }

    private void check() {
        if (result.isDone()) {
            return;
        }
        boolean allWanted = true;
        for (int i = firstWanted; i <= lastWanted; i++) {
            allWanted &= present[i];
        }
        if (allWanted) {
            finish(wanted(chunks));
            return;
        }
        if (presentCount >= layout.k()) {
            finish(decode());
            return;
        }
        if (outstanding == 0 && backlog.isEmpty()) {
            releaseChunks();
            long returning = mayReturn.stream().filter(shard -> !present[shard]).count();
            boolean retryMayHelp = presentCount + returning >= layout.k();
            result.completeExceptionally(new ShardvaultException(
                    retryMayHelp ? ErrorCode.UNAVAILABLE : ErrorCode.CORRUPT, "file " + vault.vaultId()
                    + "/" + file.fileId() + " stripe " + stripe + ": only " + presentCount + " of the "
                    + layout.k() + " chunks needed to decode (layout " + layout + ") could be read"
                    + (retryMayHelp ? "" : ", and too many of the others are corrupt for a retry to help") + ": "
                    + String.join("; ", failures)));
        }
    }

    /** Corrupt bytes stay corrupt when asked again (until a repair); the other failures may pass. */
    private static boolean corrupt(Throwable failure) {
        return ShardvaultException.unwrap(failure) instanceof ShardvaultException e && e.code() == ErrorCode.CORRUPT;
    }

    /**
     * Copies the chunks present into one aligned buffer, rebuilds the wanted ones missing, and returns
     * the wanted bytes as slices of it (the buffer goes back to the pool once they are released).
     */
    private ByteBuf decode() {
        ctx.metrics.decodes.increment();
        int n = layout.n();
        ByteBuf block = ctx.buffers.acquire(n * chunk);
        try {
            ByteBuffer[] aligned = new ByteBuffer[n];
            ByteBuf[] decoded = new ByteBuf[n];
            for (int i = 0; i < n; i++) {
                if (present[i] || (i >= firstWanted && i <= lastWanted)) {
                    aligned[i] = block.nioBuffer(i * chunk, chunk);
                    decoded[i] = block.slice(i * chunk, chunk);
                }
                if (present[i]) {
                    chunks[i].getBytes(chunks[i].readerIndex(), aligned[i].duplicate());
                }
            }
            releaseChunks();
            ctx.codecs.codec(layout.erasure()).decode(aligned, present.clone(), chunk);
            return wanted(decoded);
        } finally {
            block.release();
        }
    }

    /** The bytes {@code [from, to)} as retained slices of the chunks in {@code source} (indexed by shard). */
    private ByteBuf wanted(ByteBuf[] source) {
        ByteBuf[] parts = new ByteBuf[lastWanted - firstWanted + 1];
        for (int j = firstWanted; j <= lastWanted; j++) {
            int start = Math.max(from, j * chunk) - j * chunk;
            int end = Math.min(to, (j + 1) * chunk) - j * chunk;
            parts[j - firstWanted] = source[j].retainedSlice(source[j].readerIndex() + start, end - start);
        }
        return Unpooled.wrappedBuffer(parts);
    }

    private void finish(ByteBuf bytes) {
        releaseChunks();
        ctx.metrics.stripeRead.record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
        result.complete(bytes);
    }

    private void releaseChunks() {
        for (int i = 0; i < chunks.length; i++) {
            if (chunks[i] != null) {
                chunks[i].release();
                chunks[i] = null;
            }
        }
    }
}
