package io.shardvault.coordinator.data.internal;

import io.netty.buffer.ByteBuf;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardvaultException;
import io.shardvault.common.ShardId;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.coordinator.data.Vault;
import io.shardvault.pod.api.WriteMode;
import io.shardvault.stash.api.StashPut;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Sends the n chunks of one encoded stripe to the vault's pods (and to the stash), all at once,
 * and tells two things apart: when the stripe is <em>decided</em> (every call answered; or both
 * quorums reached and the straggler grace over; or a quorum became impossible) and when it is
 * <em>settled</em> (every call answered, so its buffers are free and it leaves the upload's in-flight
 * window).
 *
 * <p>In stash mode a chunk is <em>secured</em> once it is durable somewhere: its stash copy synced,
 * or its pod wrote it durably. A pod that could not recover a buffered write (see
 * {@link io.shardvault.coordinator.data.RecoverablePods}) gets its chunk durably and no stash copy;
 * one that refuses a buffered write ({@code NOT_RECOVERABLE}) gets it again, durably, and a stash
 * copy that was synced for it meanwhile is purged once the durable write is acknowledged (no pod
 * would purge it). The stash-side quorum counts secured chunks.
 *
 * <p>Each call gets a retained slice of the stripe's buffer, released by the RPC layer once written
 * (or failed): the buffer outlives the fan-out as long as any call may still read it. A stripe with
 * buffered pod writes holds one reference of its own until it is settled, for a durable resend.
 *
 * <p>Thread-safe; callbacks may come from any thread.
 */
final class StripeFanOut {
    private final ShardDataPath ctx;
    private final Vault vault;
    private final long fileId;
    private final long shardOffset;
    private final ByteBuf encoded;
    private final int chunk;
    private final int[] crcs;
    private final boolean toStash;
    /** Pod i is written durably: not in stash mode, or it cannot recover a buffered write. */
    private final boolean[] podDurable;
    private final int quorum;
    private final int n;

    private final boolean[] podOk;
    private final boolean[] podPending;
    private final boolean[] stashOk;
    private final boolean[] stashPending;
    /** Pod i refused a buffered write and was sent it durably. */
    private final boolean[] refused;
    private final boolean[] skipped;
    private final String[] causes;
    private int podAcks;
    private int podFails;
    private boolean stashFull;
    private int outstanding;
    private boolean graceScheduled;
    private boolean holdsBuffer;

    final CompletableFuture<StripeOutcome> decided = new CompletableFuture<>();
    final CompletableFuture<Void> settled = new CompletableFuture<>();

    /**
     * @param shardOffset where the stripe's chunks go in each shard: the stripe's offset under the
     *                    file's own layout, which for a large file is not the vault's
     * @param encoded the n chunks of {@code chunk} bytes back to back; not released here, and it
     *                must stay referenced by the caller until {@link #start} returns
     * @param toStash stash mode: buffered pod writes and stash copies, except for the pods in {@code podDurable}
     * @param podDurable the pods written durably (all of them when not {@code toStash})
     */
    StripeFanOut(ShardDataPath ctx, Vault vault, long fileId, long shardOffset, ByteBuf encoded, int chunk, int[] crcs,
                 boolean toStash, boolean[] podDurable, int quorum) {
        this.ctx = ctx;
        this.vault = vault;
        this.fileId = fileId;
        this.shardOffset = shardOffset;
        this.encoded = encoded;
        this.chunk = chunk;
        this.crcs = crcs;
        this.toStash = toStash;
        this.podDurable = podDurable.clone();
        this.quorum = quorum;
        this.n = crcs.length;
        this.podOk = new boolean[n];
        this.podPending = new boolean[n];
        this.stashOk = new boolean[n];
        this.stashPending = new boolean[n];
        this.refused = new boolean[n];
        this.skipped = new boolean[n];
        this.causes = new String[n];
    }

    /**
     * Sends every chunk except those of shards in {@code skip} (which failed an earlier stripe of the
     * file and count as failed here without a call).
     */
    StripeFanOut start(boolean[] skip, String[] skipCauses) {
        synchronized (this) {
            for (int i = 0; i < n; i++) {
                if (skip[i]) {
                    skipped[i] = true;
                    podFails++;
                    causes[i] = skipCauses[i];
                } else {
                    podPending[i] = true;
                    stashPending[i] = toStash && !podDurable[i];
                    outstanding += stashPending[i] ? 2 : 1;
                    holdsBuffer |= !podDurable[i];
                }
            }
            if (holdsBuffer) {
                encoded.retain(); // for a durable resend to a pod that refuses its buffered write
            }
        }
        // Stash copies first: a synced stash commit is the slow leg of a buffered write, and a
        // stash server's group commit takes what has arrived by the time it starts. So each server
        // gets its chunks of the stripe in one call, which lands them in one commit, and first.
        if (toStash) {
            Map<InetSocketAddress, List<Integer>> byServer = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                if (!skip[i] && !podDurable[i]) {
                    byServer.computeIfAbsent(ctx.stashFor(vault.vaultId(), i), server -> new ArrayList<>()).add(i);
                }
            }
            byServer.forEach((server, shards) -> {
                List<StashPut> puts = new ArrayList<>(shards.size());
                for (int shard : shards) {
                    puts.add(new StashPut(new ShardId(vault.vaultId(), fileId, shard), shardOffset, crcs[shard],
                            chunkSlice(shard)));
                }
                List<CompletableFuture<Void>> outcomes = ctx.stash.putAll(server, puts);
                for (int j = 0; j < shards.size(); j++) {
                    int shard = shards.get(j);
                    outcomes.get(j).whenComplete((ok, failure) -> onStash(shard, failure));
                }
            });
        }
        for (int i = 0; i < n; i++) {
            if (!skip[i]) {
                sendToPod(i, podDurable[i] ? WriteMode.DURABLE : WriteMode.BUFFERED);
            }
        }
        synchronized (this) {
            check();
        }
        return this;
    }

    private void sendToPod(int shard, WriteMode mode) {
        ctx.pods.write(vault.pod(shard), new ShardId(vault.vaultId(), fileId, shard), shardOffset, crcs[shard], mode,
                        chunkSlice(shard))
                .whenComplete((ok, failure) -> onPod(shard, mode, failure));
    }

    /** Chunk {@code shard} of the stripe, for one call that takes ownership of it. */
    private ByteBuf chunkSlice(int shard) {
        return encoded.retainedSlice(shard * chunk, chunk);
    }

    private void onPod(int shard, WriteMode mode, Throwable failure) {
        synchronized (this) {
            if (failure != null && mode == WriteMode.BUFFERED && code(failure) == ErrorCode.NOT_RECOVERABLE) {
                // The safety net: the pod could not recover it after a crash. The same call slot
                // goes on as a durable write; the stash copy, if synced, is purged after it.
                ctx.recoverablePods.refusedBuffered(vault.vaultId(), shard);
                ctx.metrics.bufferedRefused.increment();
                refused[shard] = true;
                podDurable[shard] = true;
            } else {
                outstanding--;
                podPending[shard] = false;
                if (failure == null) {
                    podOk[shard] = true;
                    podAcks++;
                } else {
                    podFails++;
                    causes[shard] = "pod " + vault.pod(shard) + ": " + describe(failure);
                }
                purgeStashCopyOfRefused(shard);
                check();
                return;
            }
        }
        sendToPod(shard, WriteMode.DURABLE);
    }

    private synchronized void onStash(int shard, Throwable failure) {
        outstanding--;
        stashPending[shard] = false;
        if (failure == null) {
            stashOk[shard] = true;
        } else {
            stashFull |= code(failure) == ErrorCode.STASH_FULL;
            String cause = "stash " + ctx.stashFor(vault.vaultId(), shard) + ": " + describe(failure);
            causes[shard] = causes[shard] == null ? cause : causes[shard] + "; " + cause;
        }
        purgeStashCopyOfRefused(shard);
        check();
    }

    /** A refused pod's stash copy, once both calls answered and the pod holds it durably: no pod purges it. */
    private void purgeStashCopyOfRefused(int shard) {
        if (refused[shard] && podOk[shard] && stashOk[shard] && !podPending[shard] && !stashPending[shard]) {
            InetSocketAddress server = ctx.stashFor(vault.vaultId(), shard);
            ctx.stash.purge(server, List.of(new ShardId(vault.vaultId(), fileId, shard)));
        }
    }

    /** Chunk i is durable somewhere: its stash copy synced, or its pod wrote it durably. */
    private boolean secured(int i) {
        return stashOk[i] || (podDurable[i] && podOk[i]);
    }

    private int securedCount() {
        int secured = 0;
        for (int i = 0; i < n; i++) {
            secured += secured(i) ? 1 : 0;
        }
        return secured;
    }

    /** Chunks that can no longer be secured: skipped, or every call for them answered without securing them. */
    private int unsecurableCount() {
        int lost = 0;
        for (int i = 0; i < n; i++) {
            lost += skipped[i] || (!secured(i) && !podPending[i] && !stashPending[i]) ? 1 : 0;
        }
        return lost;
    }

    private void check() {
        if (outstanding == 0 && holdsBuffer) {
            holdsBuffer = false;
            encoded.release();
        }
        boolean podQuorum = podAcks >= quorum;
        boolean stashQuorum = !toStash || securedCount() >= quorum;
        if (outstanding == 0) {
            decide();
            settled.complete(null);
            return;
        }
        if (podFails > n - quorum || (toStash && unsecurableCount() > n - quorum)) {
            decide();
        } else if (podQuorum && stashQuorum && !graceScheduled) {
            graceScheduled = true;
            long grace = ctx.config.stragglerGrace().toNanos();
            if (grace == 0) {
                decide();
            } else {
                ctx.timer.schedule(this::decideNow, grace, TimeUnit.NANOSECONDS);
            }
        }
    }

    private synchronized void decideNow() {
        decide();
    }

    private void decide() {
        if (decided.isDone()) {
            return;
        }
        boolean[] securedCopy = new boolean[n];
        for (int i = 0; toStash && i < n; i++) {
            securedCopy[i] = secured(i);
        }
        decided.complete(new StripeOutcome(podOk.clone(), securedCopy, causes.clone(), podAcks >= quorum,
                !toStash || securedCount() >= quorum, stashFull));
    }

    static String describe(Throwable failure) {
        Throwable t = ShardvaultException.unwrap(failure);
        if (t instanceof RpcException rpc) {
            return rpc.code() + " " + rpc.getMessage();
        }
        return t.toString();
    }

    /** The typed error of an RPC failure, or null for any other failure. */
    static ErrorCode code(Throwable failure) {
        return ShardvaultException.unwrap(failure) instanceof RpcException rpc ? rpc.code() : null;
    }
}
