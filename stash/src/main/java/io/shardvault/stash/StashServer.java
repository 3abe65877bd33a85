package io.shardvault.stash;

import io.micrometer.core.instrument.MeterRegistry;
import io.shardvault.common.rpc.RpcMetrics;
import io.shardvault.common.rpc.RpcServer;
import io.shardvault.common.rpc.RpcTransport;
import io.shardvault.stash.api.StashOps;
import io.shardvault.stash.internal.ByteBudget;
import io.shardvault.stash.internal.ChunkLogCompactor;
import io.shardvault.stash.internal.GroupCommitter;
import io.shardvault.stash.internal.Occupancy;
import io.shardvault.stash.internal.RocksShardStore;
import io.shardvault.stash.internal.ShardStore;
import io.shardvault.stash.internal.SlotAgeMonitor;
import io.shardvault.stash.internal.StartupGate;
import io.shardvault.stash.internal.StashLayout;
import io.shardvault.stash.internal.StashMetrics;
import io.shardvault.stash.internal.StashPartitions;
import io.shardvault.stash.internal.StashRequestHandler;
import io.shardvault.stash.internal.StashService;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running stash server: its partitions' stores (a RocksDB index and a chunk log each) under
 * {@link StashConfig#dataDir()} (laid out as {@code StashLayout} says), served over the internal
 * protocol ({@link StashOps}).
 *
 * <pre>
 *  start() ──▶ SERVING ──close()──▶ CLOSED
 * </pre>
 * {@code start} opens the databases (replaying their WALs) and recounts its occupancy from the entry
 * metadata before it answers any request. {@code close} stops taking requests, lets those in
 * flight finish (up to the RPC drain timeout), commits what is queued, and closes the database.
 *
 * <p>Durability: a PUT is answered only after its chunk log record, and then its index entry's WAL
 * record, are fdatasynced; acknowledged entries survive a crash of the process or the host.
 * Concurrent PUTs share syncs (group commit).
 *
 * <p>Thread-safe. Not usable after {@link #close()}; a new server may open the same directory.
 */
public final class StashServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StashServer.class);

    private final RpcServer rpcServer;
    private final StashPartitions partitions;
    private final SlotAgeMonitor monitor;
    private final ChunkLogCompactor compactor;
    private final StashMetrics metrics;
    private boolean closed;

    private StashServer(RpcServer rpcServer, StashPartitions partitions, SlotAgeMonitor monitor,
                        ChunkLogCompactor compactor, StashMetrics metrics) {
        this.rpcServer = rpcServer;
        this.partitions = partitions;
        this.monitor = monitor;
        this.compactor = compactor;
        this.metrics = metrics;
    }

    /** Starts a server with the system clock. */
    public static StashServer start(RpcTransport transport, StashConfig config, InetSocketAddress bind,
                                    MeterRegistry metrics) throws IOException {
        return start(transport, config, bind, metrics, Clock.systemUTC());
    }

    /**
     * Opens the database and starts serving.
     *
     * @param bind where to listen; port 0 picks a free port (see {@link #localAddress()})
     * @param clock stamps entries' write times and measures their ages
     * @throws IOException when the database cannot be opened or the address cannot be bound
     */
    public static StashServer start(RpcTransport transport, StashConfig config, InetSocketAddress bind,
                                    MeterRegistry registry, Clock clock) throws IOException {
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(clock, "clock");
        List<RocksShardStore> stores = new ArrayList<>();
        List<GroupCommitter> committers = new ArrayList<>();
        RpcServer rpcServer = null;
        StashMetrics metrics = null;
        SlotAgeMonitor monitor = null;
        ChunkLogCompactor compactor = null;
        try {
            StashLayout layout = StashLayout.open(config.dataDir(), config.partitions());
            StashStoreOptions storeOptions = config.store().perPartition(layout.partitions());
            for (Path dir : layout.partitionDirs()) {
                stores.add(RocksShardStore.open(dir, storeOptions));
            }
            Occupancy occupancy = Occupancy.load(stores);
            StartupGate gate = new StartupGate();
            rpcServer = RpcServer.start(transport, config.rpc(), bind, gate,
                    RpcMetrics.create(registry, RpcMetrics.opNames(StashOps.METRIC_NAMES)));
            InetSocketAddress local = rpcServer.localAddress();
            metrics = new StashMetrics(registry, local.getHostString() + ":" + local.getPort(), occupancy,
                    config.capacityBytes(), clock);
            metrics.chunkLogs(stores);
            ByteBudget budget = new ByteBudget(config.capacityBytes(), occupancy.bytes());
            List<StashPartitions.Partition> partitions = new ArrayList<>();
            for (int i = 0; i < stores.size(); i++) {
                committers.add(new GroupCommitter("p" + i, stores.get(i), occupancy, budget, metrics,
                        config.maxBatchBytes(), Math.max(1, config.maxQueuedBytes() / stores.size())));
                partitions.add(new StashPartitions.Partition(stores.get(i), committers.get(i)));
            }
            StashPartitions stash = new StashPartitions(partitions);
            stash.startCommitters();
            StashService service = new StashService(stash, occupancy, metrics, clock,
                    config.capacityBytes(), config.maxListEntries());
            monitor = new SlotAgeMonitor(occupancy, metrics, clock, config.slotAgeWarning());
            monitor.start(config.slotAgeCheckInterval());
            // Segments are sealed at wall-clock times, whatever clock stamps the entries.
            compactor = new ChunkLogCompactor(stores, storeOptions.compactAfter(), storeOptions.compactBytesPerSecond(),
                    Clock.systemUTC());
            compactor.start();
            gate.open(new StashRequestHandler(service, metrics));
            LOG.info("stash serving address={} partitions={} entries={} bytes={} capacityBytes={}", local,
                    stores.stream().map(ShardStore::describe).toList(), occupancy.entries(), occupancy.bytes(),
                    config.capacityBytes());
            return new StashServer(rpcServer, stash, monitor, compactor, metrics);
        } catch (IOException | RuntimeException e) {
            // The same order as close(): stop answering, stop writing, then close the databases.
            List<AutoCloseable> opened = new ArrayList<>();
            opened.add(rpcServer);
            opened.add(monitor);
            opened.add(compactor);
            opened.addAll(committers);
            opened.addAll(stores);
            opened.add(metrics);
            for (AutoCloseable resource : opened) {
                if (resource != null) {
                    try {
                        resource.close();
                    } catch (Exception suppressed) {
                        e.addSuppressed(suppressed);
                    }
                }
            }
            throw e;
        }
    }

    /** The bound address, with the real port when 0 was asked for. */
    public InetSocketAddress localAddress() {
        return rpcServer.localAddress();
    }

    /** The slot-age check, for tests that run it on demand. */
    SlotAgeMonitor slotAgeMonitor() {
        return monitor;
    }

    /** Stops serving, drains, commits what is queued and closes the database. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        rpcServer.close();
        monitor.close();
        compactor.close();
        partitions.close();
        metrics.close();
        LOG.info("stash closed");
    }
}
