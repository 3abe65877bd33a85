package io.shardvault.coordinator.data.internal;

import io.shardvault.common.ShardId;
import io.shardvault.coordinator.data.Vault;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes every shard of one file from its pods (and its stash copies), or only the stash copies of
 * some of its shards ({@link #stashCopiesOnly}: shards a repair made durable on their pods), each call retried with
 * doubling delays up to {@code data.delete.attempts}. Pod deletes and stash purges are idempotent,
 * so retries and repeated deletions are harmless. Completes when all succeeded, or fails with the
 * last error of the first shard that ran out of attempts (the catalog keeps the deletion queued).
 *
 * <p>Thread-safe; stateless beyond its arguments.
 */
final class ShardDeleter {
    private static final Logger LOG = LoggerFactory.getLogger(ShardDeleter.class);
    private static final long MAX_DELAY_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final ShardDataPath ctx;
    private final Vault vault;
    private final long fileId;
    private final boolean stashed;
    /** The shards whose copies go. */
    private final List<Integer> shards;
    /** Whether the pods' shards go too, not only the stash copies. */
    private final boolean podsToo;

    /** Deletes every shard of the file from its pods, and when {@code stashed} its stash copies. */
    ShardDeleter(ShardDataPath ctx, Vault vault, long fileId, boolean stashed) {
        this(ctx, vault, fileId, stashed, allShards(vault), true);
    }

    private ShardDeleter(ShardDataPath ctx, Vault vault, long fileId, boolean stashed, List<Integer> shards,
                         boolean podsToo) {
        this.ctx = ctx;
        this.vault = vault;
        this.fileId = fileId;
        this.stashed = stashed;
        this.shards = List.copyOf(shards);
        this.podsToo = podsToo;
    }

    /** Purges the stash copies of {@code shards} of a stashed file and leaves its pods' shards alone. */
    static ShardDeleter stashCopiesOnly(ShardDataPath ctx, Vault vault, long fileId, List<Integer> shards) {
        return new ShardDeleter(ctx, vault, fileId, true, shards, false);
    }

    private static List<Integer> allShards(Vault vault) {
        List<Integer> all = new ArrayList<>(vault.layout().n());
        for (int i = 0; i < vault.layout().n(); i++) {
            all.add(i);
        }
        return all;
    }

    CompletableFuture<Void> start() {
        List<CompletableFuture<?>> all = new ArrayList<>();
        for (int shard : shards) {
            ShardId id = new ShardId(vault.vaultId(), fileId, shard);
            if (podsToo) {
                all.add(retry(id, "pod " + vault.pod(shard), () -> ctx.pods.delete(vault.pod(shard), id)));
            }
            if (stashed && ctx.placement != null) {
                all.add(retry(id, "stash " + ctx.stashFor(vault.vaultId(), shard),
                        () -> ctx.stash.purge(ctx.stashFor(vault.vaultId(), shard), Set.of(id))));
            }
        }
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new));
    }

    private <T> CompletableFuture<T> retry(ShardId id, String target, Supplier<CompletableFuture<T>> call) {
        CompletableFuture<T> result = new CompletableFuture<>();
        attempt(call, result, 1, ctx.config.deleteRetryMin().toNanos());
        result.whenComplete((value, failure) -> {
            if (failure != null) {
                LOG.atWarn().addKeyValue("shard", id)
                        .addKeyValue("target", target).addKeyValue("error", String.valueOf(failure))
                        .log(podsToo ? "shard delete gave up; the catalog keeps the file queued for deletion"
                                : "stash copy purge gave up; the repair keeps the file queued and purges again");
            }
        });
        return result;
    }

    private <T> void attempt(Supplier<CompletableFuture<T>> call, CompletableFuture<T> result, int attempt,
                             long delayNanos) {
        call.get().whenComplete((value, failure) -> {
            if (failure == null) {
                result.complete(value);
            } else if (attempt >= ctx.config.deleteAttempts()) {
                result.completeExceptionally(failure);
            } else {
                ctx.metrics.deleteRetries.increment();
                try {
                    ctx.timer.schedule(() -> attempt(call, result, attempt + 1,
                            Math.min(MAX_DELAY_NANOS, delayNanos * 2)), delayNanos, TimeUnit.NANOSECONDS);
                } catch (java.util.concurrent.RejectedExecutionException closed) {
                    result.completeExceptionally(failure);
                }
            }
        });
    }
}
