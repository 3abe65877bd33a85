package io.shardvault.coordinator.data.internal;


import io.netty.buffer.ByteBuf;
import io.micrometer.core.instrument.MeterRegistry;
import io.shardvault.common.DaemonThreads;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardvaultException;
import io.shardvault.common.erasure.ErasureCodecs;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.common.rpc.RpcMetrics;
import io.shardvault.common.rpc.RpcTransport;
import io.shardvault.coordinator.data.ByteSource;
import io.shardvault.coordinator.data.DamagedShards;
import io.shardvault.coordinator.data.DataPath;
import io.shardvault.coordinator.data.DataPathConfig;
import io.shardvault.coordinator.data.FileContent;
import io.shardvault.coordinator.data.FileIdSource;
import io.shardvault.coordinator.data.RecoverablePods;
import io.shardvault.coordinator.data.StoredFile;
import io.shardvault.coordinator.data.Vault;
import io.shardvault.coordinator.data.VaultDirectory;
import io.shardvault.coordinator.data.WritablePods;
import io.shardvault.pod.api.PodClient;
import io.shardvault.pod.api.PodOps;
import io.shardvault.stash.api.StashClient;
import io.shardvault.stash.api.StashOps;
import io.shardvault.stash.api.StashPlacement;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BiConsumer;

/**
 * The data paths over real pods and stash servers. Owns an RPC client (whose request timeout is
 * {@code data.rpc.timeout}, the per-RPC timeout of every chunk call), a small worker pool that
 * copies, encodes and decodes off the event loops, one timer thread (hedges, straggler grace,
 * delete retries) and the pool of stripe buffers ({@link StripeBuffers}).
 *
 * <p>Thread-safe. {@link #close()} stops the pools and the RPC client; the transport stays open.
 */
public final class ShardDataPath implements DataPath {
    final DataPathConfig config;
    final VaultDirectory vaults;
    final FileIdSource fileIds;
    final ErasureCodecs codecs;
    final PodClient pods;
    final StashClient stash;
    final StashPlacement placement;
    final StashHealth stashHealth;
    final WritablePods writablePods;
    final RecoverablePods recoverablePods;
    /** Where reads report chunks a pod answered CORRUPT or NOT_FOUND for. */
    final DamagedShards damaged;
    final LatencyTracker readLatency;
    final DataPathMetrics metrics;
    final StripeBuffers buffers;
    final UnsettledWrites unsettled = new UnsettledWrites();
    final ExecutorService workers;
    final ScheduledExecutorService timer;
    private final RpcClient rpc;
    /** Pods that hedges find late far more often than their peers: new stripe reads go around them. */
    final SlowPods slowPods = new SlowPods();

    private ShardDataPath(DataPathConfig config, VaultDirectory vaults, FileIdSource fileIds, ErasureCodecs codecs,
                          RpcClient rpc, List<InetSocketAddress> stashServers, WritablePods writablePods,
                          RecoverablePods recoverablePods, DamagedShards damaged, MeterRegistry registry) {
        this.config = config;
        this.damaged = damaged;
        this.writablePods = writablePods;
        this.recoverablePods = recoverablePods;
        this.vaults = vaults;
        this.fileIds = fileIds;
        this.codecs = codecs;
        this.rpc = rpc;
        this.pods = new PodClient(rpc);
        this.stash = new StashClient(rpc);
        this.placement = stashServers.isEmpty() ? null : new StashPlacement(stashServers);
        this.stashHealth = new StashHealth(placement, config.stashBackoff());
        this.readLatency = new LatencyTracker(config.hedgeMin(), config.hedgeMax());
        this.metrics = new DataPathMetrics(registry);
        this.buffers = new StripeBuffers(config.bufferPoolBytes());
        this.workers = Executors.newFixedThreadPool(Math.max(2, Runtime.getRuntime().availableProcessors()),
                DaemonThreads.numbered("data-path"));
        this.timer = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("data-path-timer"));
    }

    /**
     * Creates the data paths.
     *
     * @param transport    the process's RPC transport (not owned)
     * @param clientConfig the RPC client settings; the request timeout is replaced by {@code data.rpc.timeout}
     * @param stashServers the stash servers, in cluster-map order (empty: no stash, every write durable)
     */
    public static ShardDataPath create(DataPathConfig config, VaultDirectory vaults, FileIdSource fileIds,
                                       ErasureCodecs codecs, RpcTransport transport, RpcClientConfig clientConfig,
                                       List<InetSocketAddress> stashServers, MeterRegistry registry) {
        return create(config, vaults, fileIds, codecs, transport, clientConfig, stashServers, WritablePods.ALL,
                RecoverablePods.ALL, registry);
    }

    /**
     * Creates the data paths; new shards go only to the pods {@code writablePods} allows (see
     * {@link WritablePods} for what a write does without a pod), and buffered writes only to the
     * pods {@code recoverablePods} allows (the others are written durably).
     */
    public static ShardDataPath create(DataPathConfig config, VaultDirectory vaults, FileIdSource fileIds,
                                       ErasureCodecs codecs, RpcTransport transport, RpcClientConfig clientConfig,
                                       List<InetSocketAddress> stashServers, WritablePods writablePods,
                                       RecoverablePods recoverablePods, MeterRegistry registry) {
        return create(config, vaults, fileIds, codecs, transport, clientConfig, stashServers, writablePods,
                recoverablePods, DamagedShards.NONE, registry);
    }

    /**
     * Creates the data paths as above; reads also report the shards they find corrupt or missing to
     * {@code damaged} (the repair queue, issue #20).
     */
    public static ShardDataPath create(DataPathConfig config, VaultDirectory vaults, FileIdSource fileIds,
                                       ErasureCodecs codecs, RpcTransport transport, RpcClientConfig clientConfig,
                                       List<InetSocketAddress> stashServers, WritablePods writablePods,
                                       RecoverablePods recoverablePods, DamagedShards damaged, MeterRegistry registry) {
        Objects.requireNonNull(writablePods, "writablePods");
        Objects.requireNonNull(recoverablePods, "recoverablePods");
        Objects.requireNonNull(damaged, "damaged");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(vaults, "vaults");
        Objects.requireNonNull(fileIds, "fileIds");
        Objects.requireNonNull(codecs, "codecs");
        Objects.requireNonNull(registry, "registry");
        RpcClient rpc = RpcClient.create(transport, clientConfig.withRequestTimeout(config.rpcTimeout()),
                RpcMetrics.create(registry, RpcMetrics.opNames(PodOps.METRIC_NAMES, StashOps.METRIC_NAMES)));
        return new ShardDataPath(config, vaults, fileIds, codecs, rpc, List.copyOf(stashServers), writablePods,
                recoverablePods, damaged, registry);
    }

    @Override
    public CompletableFuture<StoredFile> write(ByteSource body) {
        Objects.requireNonNull(body, "body");
        try {
            Vault vault = vaults.vaultForWrite(body.length());
            return new FileWrite(this, vault, body).start();
        } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public FileContent read(StoredFile file, long offset, long length) {
        Objects.requireNonNull(file, "file");
        if (offset < 0 || length < 0 || offset > file.size() || length > file.size() - offset) {
            throw new IllegalArgumentException("range [" + offset + ", +" + length + ") is outside file "
                    + file.fileId() + " of " + file.size() + " bytes");
        }
        Vault vault = vault(file.vaultId());
        return new FileRead(this, vault, file, offset, length);
    }

    @Override
    public CompletableFuture<Void> delete(StoredFile file) {
        Objects.requireNonNull(file, "file");
        Vault vault;
        try {
            vault = vault(file.vaultId());
        } catch (IllegalStateException e) {
            return CompletableFuture.failedFuture(e.getCause());
        }
        return deleteShards(vault, file.fileId(), file.stashed());
    }

    @Override
    public CompletableFuture<Void> purgeStashCopies(StoredFile file, List<Integer> shards) {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(shards, "shards");
        if (!file.stashed() || placement == null || shards.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        Vault vault;
        try {
            vault = vault(file.vaultId());
        } catch (IllegalStateException e) {
            return CompletableFuture.failedFuture(e.getCause());
        }
        for (int shard : shards) {
            if (shard < 0 || shard >= vault.layout().n()) {
                return CompletableFuture.failedFuture(new IllegalArgumentException("shard " + shard
                        + " is outside vault " + vault.vaultId() + "'s " + vault.layout().n() + " pods"));
            }
        }
        return unsettled.settled(vault.vaultId(), file.fileId()).thenComposeAsync(
                v -> ShardDeleter.stashCopiesOnly(this, vault, file.fileId(), shards).start(), workers);
    }

    /**
     * Deletes every shard of a file once the shard writes sent for it have answered (see
     * {@link UnsettledWrites}), on a worker: the last answer may come on an event loop.
     */
    CompletableFuture<Void> deleteShards(Vault vault, long fileId, boolean stashed) {
        return unsettled.settled(vault.vaultId(), fileId)
                .thenComposeAsync(v -> new ShardDeleter(this, vault, fileId, stashed).start(), workers);
    }

    private Vault vault(int vaultId) {
        return vaults.vault(vaultId).orElseThrow(() -> new IllegalStateException(
                new ShardvaultException(ErrorCode.NOT_FOUND, "vault " + vaultId + " is not in the cluster map")));
    }

    /** The stash server for shard {@code shardIndex} of a vault; only when a stash is configured. */
    InetSocketAddress stashFor(int vaultId, int shardIndex) {
        return placement.serverFor(vaultId, shardIndex);
    }

    /**
     * Hands a buffer's arrival (a chunk, a piece of a body) to {@code then} on the workers. One that arrives
     * after this data path closed is released here: nothing waits for it any more, and a completion handed to
     * a shut-down pool (as {@code whenCompleteAsync} does) is dropped with its buffer.
     */
    void onWorkers(CompletableFuture<ByteBuf> arrival, BiConsumer<ByteBuf, Throwable> then) {
        arrival.whenComplete((buf, failure) -> {
            try {
                workers.execute(() -> then.accept(buf, failure));
            } catch (RejectedExecutionException closed) {
                if (buf != null) {
                    buf.release();
                }
            }
        });
    }

    @Override
    public ByteBuf stripeBuffer(int capacity) {
        return buffers.acquire(capacity);
    }

    @Override
    public void close() {
        timer.shutdownNow();
        workers.shutdown();
        rpc.close();
    }
}
