package io.shardvault.coordinator.data.internal;

import io.micrometer.core.instrument.Timer;
import io.netty.buffer.ByteBuf;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardvaultException;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.erasure.ErasureCodec;
import io.shardvault.common.erasure.ErasureStripes;
import io.shardvault.coordinator.data.ByteSource;
import io.shardvault.coordinator.data.StoredFile;
import io.shardvault.coordinator.data.Vault;
import io.shardvault.coordinator.data.VaultLayout;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One file being written. Pulls the body into a stripe buffer, encodes each full stripe and hands
 * it to a {@link StripeFanOut}; at most a window of stripes ({@code maxInFlightStripes}) is unsettled at a time,
 * and the body is not read while the window is full, so memory is bounded by the window and a slow
 * pod slows the producer.
 *
 * <p>A file larger than one stripe of the vault's layout is cut with the large-file layout
 * ({@code data.write.largeFileChunkBytes}: the vault's k and m, larger chunks), which the
 * {@link StoredFile} carries to the catalog; its window is counted in the bytes of the vault's
 * stripes, at least 2 of its own. Every other file, and a source of unknown length, uses the
 * vault's layout.
 *
 * <p>A source of unknown length ({@link ByteSource#length()} -1) fills full stripes until it ends;
 * its size is the count at the end, and its last stripe is cut to what arrived (a full stripe's buffer,
 * only partly filled, is laid out as the shorter stripe's: the data chunks are back to back either way).
 *
 * <p>A small file (one stripe, at most {@code stash.threshold}) with a usable stash is sent to
 * buffered pods and the stash; a pod that could not recover a buffered write ({@code RecoverablePods})
 * gets its chunk durably instead, which secures that chunk as a stash copy would. The choice is made when the first stripe goes out, when a source of
 * unknown length is small only if it already ended within that stripe. If the stash side cannot reach its quorum, the stash is marked down
 * for a while and the same encoded stripe is written again, durably, under a fresh file id: the
 * pods would acknowledge a repeated chunk without syncing it, so reusing the id could not make it
 * durable. The abandoned id's shards are deleted in the background.
 *
 * <p>Stripe buffers come from {@link StripeBuffers}: the write owns one reference to the stripe being
 * filled, each chunk RPC a retained slice, so a buffer is reused only after every RPC let go of it.
 * The write keeps its own reference past the send only for a stash-mode stripe, which the durable
 * retry may send again, until that stripe is decided or the write ends.
 *
 * <p>All state is guarded by {@code this}; body and RPC callbacks hop to the worker pool.
 */
final class FileWrite {
    private final ShardDataPath ctx;
    private final Vault vault;
    /** The layout the file is cut with: the vault's, or for a file larger than one vault stripe its large-file layout. */
    private final VaultLayout layout;
    /** Stripes of {@link #layout} in flight at most: the window in bytes of the vault's stripes (see DataPathConfig). */
    private final int window;
    private final ByteSource body;
    /** The file's size: the source's declared length, or -1 until a source of unknown length ends. */
    private long size;
    private final int quorum;
    private final ErasureCodec codec;
    private final CompletableFuture<StoredFile> result = new CompletableFuture<>();
    private final long startNanos = System.nanoTime();

    private boolean stashMode;
    private long fileId;
    private final boolean[] failed;
    private final String[] failCauses;
    private boolean[] secured;
    private long decidedCount;
    private boolean awaitingRetryId;

    private long received;
    private long nextStripe;
    private ByteBuf block;
    private int blockLength;
    private int blockFilled;
    private ByteBuf pending;
    private boolean reading;
    private boolean sourceDone;
    private int inFlight;
    /**
     * The current file id's fan-outs that have not settled; handed to the data path's
     * {@link UnsettledWrites} when the write ends or abandons the id, so no delete of its shards
     * overtakes a shard write still on its way.
     */
    private final List<CompletableFuture<Void>> unsettled = new ArrayList<>();
    private boolean finished;
    /** The encoded stripe of a small file in stash mode, kept for a durable retry if the stash refuses it. */
    private ByteBuf retryBlock;
    private int retryChunk;
    private int[] retryCrcs;

    FileWrite(ShardDataPath ctx, Vault vault, ByteSource body) {
        this.ctx = ctx;
        this.vault = vault;
        this.body = body;
        this.size = body.length();
        this.layout = ctx.config.fileLayout(vault.layout(), size);
        this.window = ctx.config.writeWindowStripes(vault.layout(), layout);
        this.quorum = ctx.config.writeQuorum(layout);
        this.codec = ctx.codecs.codec(layout.erasure());
        this.failed = new boolean[layout.n()];
        this.failCauses = new String[layout.n()];
        skipUnwritablePods();
    }

    /** Pods an operator drained or marked down get no shard of this file: it is missing from the start. */
    private void skipUnwritablePods() {
        for (int i = 0; i < failed.length; i++) {
            java.util.Optional<String> why = ctx.writablePods.whyNotWritable(vault.vaultId(), i);
            if (why.isPresent()) {
                failed[i] = true;
                failCauses[i] = "pod " + vault.pod(i) + ": " + why.get();
            }
        }
    }

    CompletableFuture<StoredFile> start() {
        int skipped = 0;
        for (boolean f : failed) {
            skipped += f ? 1 : 0;
        }
        if (skipped > layout.n() - quorum) {
            // Not a stash problem: fail before the stash fallback could mistake it for one.
            ctx.metrics.writeFailures.increment();
            result.completeExceptionally(new ShardvaultException(ErrorCode.UNAVAILABLE, "vault " + vault.vaultId()
                    + ": " + skipped + " pods take no new shards but writes need " + quorum + " of " + layout.n()
                    + "; " + causes()));
            return result;
        }
        ctx.fileIds.nextFileId(vault.vaultId()).whenCompleteAsync((id, failure) -> {
            if (failure != null) {
                fail(failure);
                return;
            }
            synchronized (this) {
                fileId = id;
            }
            pump();
        }, ctx.workers);
        return result;
    }

    private synchronized void pump() {
        while (true) {
            if (finished || awaitingRetryId) {
                return;
            }
            while (pending != null) {
                if (block == null) {
                    if (inFlight >= window) {
                        return;
                    }
                    newStripe();
                }
                int copy = Math.min(pending.readableBytes(), blockLength - blockFilled);
                pending.readBytes(block, blockFilled, copy);
                blockFilled += copy;
                if (blockFilled == blockLength) {
                    dispatch();
                }
                if (!pending.isReadable()) {
                    pending.release();
                    pending = null;
                }
            }
            if (sourceDone) {
                if (block != null) {
                    // The short last stripe of a source of unknown length.
                    dispatch();
                }
                long stripes = layout.stripeCount(size);
                if (nextStripe == stripes && decidedCount == stripes) {
                    complete();
                }
                return;
            }
            if (reading) {
                return;
            }
            reading = true;
            CompletableFuture<ByteBuf> next;
            try {
                next = body.read();
            } catch (RuntimeException e) {
                next = CompletableFuture.failedFuture(e);
            }
            if (!next.isDone() || next.isCompletedExceptionally()) {
                ctx.onWorkers(next, this::onRead);
                return;
            }
            // Already buffered: take it on this thread and go round again. A hop to the workers per
            // body piece cost milliseconds per PUT on a loaded machine (profiled, issue #11).
            if (!take(next.join(), null)) {
                return;
            }
        }
    }

    private void onRead(ByteBuf buf, Throwable failure) {
        if (take(buf, failure)) {
            pump();
        }
    }

    /** Takes in one read's outcome; true if the upload goes on. */
    private synchronized boolean take(ByteBuf buf, Throwable failure) {
        reading = false;
        if (failure != null || finished) {
            if (buf != null) {
                buf.release();
            }
            if (failure != null) {
                fail(failure);
            }
            return false;
        }
        if (buf == null) {
            if (size < 0) {
                size = received;
            } else if (received != size) {
                fail(new ShardvaultException(ErrorCode.BAD_REQUEST, "body ended after " + received
                        + " of " + size + " bytes"));
                return false;
            }
            sourceDone = true;
        } else {
            received += buf.readableBytes();
            if (size >= 0 && received > size) {
                buf.release();
                fail(new ShardvaultException(ErrorCode.BAD_REQUEST, "body longer than its declared " + size
                        + " bytes"));
                return false;
            }
            pending = buf;
        }
        return true;
    }

    private void newStripe() {
        int stripeLength = size < 0 ? layout.stripeBytes() : layout.stripeLength(size, nextStripe);
        int chunk = ErasureStripes.chunkLength(stripeLength, layout.k());
        blockLength = stripeLength;
        blockFilled = 0;
        // Data chunks back to back, zero padding after the stripe's bytes, then the parity chunks.
        block = ctx.buffers.acquire(layout.n() * chunk);
    }

    private void dispatch() {
        long stripe = nextStripe++;
        if (stripe == 0) {
            chooseMode();
        }
        // The bytes that arrived: the stripe's length, short only for the last stripe of an unknown length.
        int chunk = ErasureStripes.chunkLength(blockFilled, layout.k());
        // A reused buffer holds an earlier stripe: zero the padding; the body and the encode wrote the rest.
        block.setZero(blockFilled, layout.k() * chunk - blockFilled);
        ByteBuffer[] chunks = ErasureStripes.slices(block.nioBuffer(0, layout.n() * chunk), layout.n(), chunk);
        ByteBuffer[] data = new ByteBuffer[layout.k()];
        ByteBuffer[] parity = new ByteBuffer[layout.m()];
        System.arraycopy(chunks, 0, data, 0, layout.k());
        System.arraycopy(chunks, layout.k(), parity, 0, layout.m());
        codec.encode(data, parity, chunk);
        int[] crcs = new int[chunks.length];
        for (int i = 0; i < chunks.length; i++) {
            crcs[i] = Crc32c.of(chunks[i]);
        }
        ByteBuf encoded = block;
        block = null;
        send(stripe, encoded, chunk, crcs);
        if (stashMode) {
            retryBlock = encoded;
            retryChunk = chunk;
            retryCrcs = crcs;
        } else {
            encoded.release();
        }
    }

    /** Stash or durable, once the first stripe is full or the source ended. */
    private void chooseMode() {
        boolean small = size > 0 && size <= ctx.config.stashThreshold() && size <= vault.layout().stripeBytes();
        stashMode = small && ctx.stashHealth.usable();
        if (small && !stashMode && ctx.stashHealth.configured()) {
            ctx.metrics.fallbackStashDown.increment();
        }
    }

    /** Sends the encoded stripe in {@code encoded} (chunks of {@code chunk} bytes); the caller keeps its reference. */
    private void send(long stripe, ByteBuf encoded, int chunk, int[] crcs) {
        inFlight++;
        // A pod that could not recover a buffered write gets its chunk durably (and no stash copy).
        boolean[] podDurable = new boolean[layout.n()];
        for (int i = 0; i < podDurable.length; i++) {
            podDurable[i] = !stashMode || !ctx.recoverablePods.canRecoverBuffered(vault.vaultId(), i);
            if (stashMode && podDurable[i] && !failed[i]) {
                ctx.metrics.unassignedPodChunks.increment();
            }
        }
        StripeFanOut fanOut = new StripeFanOut(ctx, vault, fileId, layout.shardOffset(stripe), encoded, chunk, crcs,
                stashMode, podDurable, quorum)
                .start(failed.clone(), failCauses.clone());
        unsettled.removeIf(CompletableFuture::isDone);
        unsettled.add(fanOut.settled);
        long id = fileId;
        // The window slot is freed only after the outcome was taken in, so completion never races it.
        CompletableFuture<Void> handled = fanOut.decided.thenAcceptAsync(outcome -> onDecided(id, outcome),
                ctx.workers);
        // Async: the last RPC answer may complete it on an event loop, and onSettled may encode.
        handled.runAfterBothAsync(fanOut.settled, () -> onSettled(id), ctx.workers);
    }

    private void onDecided(long id, StripeOutcome outcome) {
        synchronized (this) {
            if (finished || id != fileId) {
                return;
            }
            if (stashMode && !outcome.stashQuorum()) {
                // Decided early because the stash side cannot make it, whatever the pods say: go durable.
                fallBackToDurable(outcome);
                return;
            }
            decidedCount++;
            if (stashMode) {
                secured = outcome.secured();
                releaseRetryBlock();
            }
            for (int i = 0; i < failed.length; i++) {
                if (!outcome.podOk()[i] && !failed[i]) {
                    failed[i] = true;
                    failCauses[i] = outcome.causes()[i] == null ? "no answer within the straggler grace"
                            : outcome.causes()[i];
                }
            }
            if (!outcome.podQuorum()) {
                fail(new ShardvaultException(ErrorCode.UNAVAILABLE, "file " + vault.vaultId() + "/" + fileId
                        + ": fewer than " + quorum + " of " + layout.n() + " pods acknowledged; " + causes()));
                return;
            }
        }
        pump();
    }

    private synchronized void onSettled(long id) {
        if (id == fileId) {
            inFlight--;
        }
        if (!finished) {
            pump();
        }
    }

    /** The stash refused a small file: mark it down and write the kept stripe again, durably, as a new file. */
    private void fallBackToDurable(StripeOutcome outcome) {
        ctx.stashHealth.markDown();
        (outcome.stashFull() ? ctx.metrics.fallbackStashFull : ctx.metrics.fallbackStashUnreachable).increment();
        handOverUnsettled();
        ctx.deleteShards(vault, fileId, true);
        stashMode = false;
        Arrays.fill(failed, false);
        Arrays.fill(failCauses, null);
        skipUnwritablePods();
        decidedCount = 0;
        // The old fan-out's settle must not release the new one's window slot.
        inFlight = 0;
        fileId = -1;
        awaitingRetryId = true;
        ctx.fileIds.nextFileId(vault.vaultId()).whenCompleteAsync((id, failure) -> {
            if (failure != null) {
                fail(failure);
                return;
            }
            synchronized (this) {
                if (finished) {
                    return;
                }
                fileId = id;
                awaitingRetryId = false;
                send(0, retryBlock, retryChunk, retryCrcs);
                // Durable now: no second retry, so the write needs its reference no longer.
                releaseRetryBlock();
            }
        }, ctx.workers);
    }

    private void complete() {
        finished = true;
        releaseRetryBlock();
        // Stragglers may still be writing: a delete of this file (a refused commit) waits for them.
        handOverUnsettled();
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < failed.length; i++) {
            // In stash mode a buffered pod copy that is not secured (no stash copy) is durable nowhere yet: repair it.
            if (failed[i] || (stashMode && !secured[i])) {
                missing.add(i);
            }
        }
        ctx.metrics.missingShards.increment(missing.size());
        Timer timer = stashMode ? ctx.metrics.writeStash : ctx.metrics.writeDurable;
        timer.record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
        result.complete(new StoredFile(vault.vaultId(), fileId, size, layout, missing, stashMode));
    }

    private synchronized void fail(Throwable failure) {
        if (finished) {
            return;
        }
        finished = true;
        if (pending != null) {
            pending.release();
            pending = null;
        }
        if (block != null) {
            block.release();
            block = null;
        }
        releaseRetryBlock();
        ctx.metrics.writeFailures.increment();
        Throwable cause = ShardvaultException.unwrap(failure);
        result.completeExceptionally(cause);
        if (nextStripe > 0 && fileId >= 0) {
            handOverUnsettled();
            ctx.deleteShards(vault, fileId, stashMode);
        }
    }

    private void handOverUnsettled() {
        ctx.unsettled.track(vault.vaultId(), fileId, unsettled.toArray(CompletableFuture[]::new));
        unsettled.clear();
    }

    private void releaseRetryBlock() {
        if (retryBlock != null) {
            retryBlock.release();
            retryBlock = null;
            retryCrcs = null;
        }
    }

    private String causes() {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < failCauses.length; i++) {
            if (failCauses[i] != null) {
                out.append("shard ").append(i).append(": ").append(failCauses[i]).append("; ");
            }
        }
        return out.toString();
    }
}
