package io.shardvault.coordinator.data.internal;

import io.netty.buffer.ByteBuf;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardvaultException;
import io.shardvault.common.ShardId;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.coordinator.data.Vault;
import io.shardvault.pod.WriteMode;
import io.shardvault.stash.StashPut;

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
 * <p>Each call gets a retained slice of the stripe's buffer, released by the RPC layer once written
 * (or failed): the buffer outlives the fan-out as long as any call may still read it.
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
    private final WriteMode mode;
    private final boolean toStash;
    private final int quorum;
    private final int n;

    private final boolean[] podOk;
    private final boolean[] stashOk;
    private final String[] causes;
    private int podAcks;
    private int podFails;
    private int stashAcks;
    private int stashFails;
    private boolean stashFull;
    private int outstanding;
    private boolean graceScheduled;

    final CompletableFuture<StripeOutcome> decided = new CompletableFuture<>();
    final CompletableFuture<Void> settled = new CompletableFuture<>();

    /**
     * @param shardOffset where the stripe's chunks go in each shard: the stripe's offset under the
     *                    file's own layout, which for a large file is not the vault's
     * @param encoded the n chunks of {@code chunk} bytes back to back; not released here, and it
     *                must stay referenced by the caller until {@link #start} returns
     */
    StripeFanOut(ShardDataPath ctx, Vault vault, long fileId, long shardOffset, ByteBuf encoded, int chunk, int[] crcs,
                 WriteMode mode, boolean toStash, int quorum) {
        this.ctx = ctx;
        this.vault = vault;
        this.fileId = fileId;
        this.shardOffset = shardOffset;
        this.encoded = encoded;
        this.chunk = chunk;
        this.crcs = crcs;
        this.mode = mode;
        this.toStash = toStash;
        this.quorum = quorum;
        this.n = crcs.length;
        this.podOk = new boolean[n];
        this.stashOk = new boolean[n];
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
                    podFails++;
                    causes[i] = skipCauses[i];
                    if (toStash) {
                        stashFails++;
                    }
                } else {
                    outstanding += toStash ? 2 : 1;
                }
            }
        }
        // Stash copies first: a synced stash commit is the slow leg of a buffered write, and a
        // stash server's group commit takes what has arrived by the time it starts. So each server
        // gets its chunks of the stripe in one call, which lands them in one commit, and first.
        if (toStash) {
            Map<InetSocketAddress, List<Integer>> byServer = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                if (!skip[i]) {
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
                int shard = i;
                ctx.pods.write(vault.pod(i), new ShardId(vault.vaultId(), fileId, i), shardOffset, crcs[i], mode,
                                chunkSlice(i))
                        .whenComplete((ok, failure) -> onPod(shard, failure));
            }
        }
        check();
        return this;
    }

    /** Chunk {@code shard} of the stripe, for one call that takes ownership of it. */
    private ByteBuf chunkSlice(int shard) {
        return encoded.retainedSlice(shard * chunk, chunk);
    }

    private synchronized void onPod(int shard, Throwable failure) {
        outstanding--;
        if (failure == null) {
            podOk[shard] = true;
            podAcks++;
        } else {
            podFails++;
            causes[shard] = "pod " + vault.pod(shard) + ": " + describe(failure);
        }
        check();
    }

    private synchronized void onStash(int shard, Throwable failure) {
        outstanding--;
        if (failure == null) {
            stashOk[shard] = true;
            stashAcks++;
        } else {
            stashFails++;
            stashFull |= code(failure) == ErrorCode.STASH_FULL;
            String cause = "stash " + ctx.stashFor(vault.vaultId(), shard) + ": " + describe(failure);
            causes[shard] = causes[shard] == null ? cause : causes[shard] + "; " + cause;
        }
        check();
    }

    private synchronized void check() {
        boolean podQuorum = podAcks >= quorum;
        boolean stashQuorum = !toStash || stashAcks >= quorum;
        if (outstanding == 0) {
            decide();
            settled.complete(null);
            return;
        }
        if (podFails > n - quorum || (toStash && stashFails > n - quorum)) {
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
        boolean[] stashCopy = toStash ? stashOk.clone() : new boolean[n];
        decided.complete(new StripeOutcome(podOk.clone(), stashCopy, causes.clone(), podAcks >= quorum,
                !toStash || stashAcks >= quorum, stashFull));
    }

    static String describe(Throwable failure) {
        Throwable t = ShardvaultException.unwrap(failure);
        if (t instanceof RpcException rpc) {
            return rpc.code() + " " + rpc.getMessage();
        }
        return t.toString();
    }

    /** The typed error of an RPC failure, or null for any other failure. */
    private static ErrorCode code(Throwable failure) {
        return ShardvaultException.unwrap(failure) instanceof RpcException rpc ? rpc.code() : null;
    }
}
