package io.shardvault.stash;

import io.micrometer.core.instrument.MeterRegistry;
import io.shardvault.common.rpc.RpcMetrics;
import io.shardvault.common.rpc.RpcServer;
import io.shardvault.common.rpc.RpcTransport;
import io.shardvault.stash.internal.GroupCommitter;
import io.shardvault.stash.internal.Occupancy;
import io.shardvault.stash.internal.RocksShardStore;
import io.shardvault.stash.internal.ShardStore;
import io.shardvault.stash.internal.SlotAgeMonitor;
import io.shardvault.stash.internal.StartupGate;
import io.shardvault.stash.internal.StashMetrics;
import io.shardvault.stash.internal.StashRequestHandler;
import io.shardvault.stash.internal.StashService;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running stash server: one RocksDB database under {@link StashConfig#dataDir()}, served over
 * the internal protocol ({@link StashOps}).
 *
 * <pre>
 *  start() ──▶ SERVING ──close()──▶ CLOSED
 * </pre>
 * {@code start} opens the database (replaying its WAL) and recounts its occupancy from the entry
 * metadata before it answers any request. {@code close} stops taking requests, lets those in
 * flight finish (up to the RPC drain timeout), commits what is queued, and closes the database.
 *
 * <p>Durability: a PUT is answered only after its WAL record is fdatasynced; acknowledged entries
 * survive a crash of the process or the host. Concurrent PUTs share syncs (group commit).
 *
 * <p>Thread-safe. Not usable after {@link #close()}; a new server may open the same directory.
 */
public final class StashServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StashServer.class);

    private final RpcServer rpcServer;
    private final ShardStore store;
    private final GroupCommitter committer;
    private final SlotAgeMonitor monitor;
    private final StashMetrics metrics;
    private boolean closed;

    private StashServer(RpcServer rpcServer, ShardStore store, GroupCommitter committer, SlotAgeMonitor monitor,
                        StashMetrics metrics) {
        this.rpcServer = rpcServer;
        this.store = store;
        this.committer = committer;
        this.monitor = monitor;
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
        RocksShardStore store = null;
        RpcServer rpcServer = null;
        StashMetrics metrics = null;
        GroupCommitter committer = null;
        SlotAgeMonitor monitor = null;
        try {
            store = RocksShardStore.open(config.dataDir(), config.store());
            Occupancy occupancy = Occupancy.load(store);
            StartupGate gate = new StartupGate();
            rpcServer = RpcServer.start(transport, config.rpc(), bind, gate,
                    RpcMetrics.create(registry, RpcMetrics.opNames(StashOps.METRIC_NAMES)));
            InetSocketAddress local = rpcServer.localAddress();
            metrics = new StashMetrics(registry, local.getHostString() + ":" + local.getPort(), occupancy,
                    config.capacityBytes(), clock);
            committer = new GroupCommitter(store, occupancy, metrics, config.capacityBytes(), config.maxBatchBytes(),
                    config.maxQueuedBytes());
            committer.start();
            StashService service = new StashService(store, committer, occupancy, metrics, clock,
                    config.capacityBytes(), config.maxListEntries());
            monitor = new SlotAgeMonitor(occupancy, metrics, clock, config.slotAgeWarning());
            monitor.start(config.slotAgeCheckInterval());
            gate.open(new StashRequestHandler(service, metrics));
            LOG.info("stash serving address={} store={} entries={} bytes={} capacityBytes={}", local,
                    store.describe(), occupancy.entries(), occupancy.bytes(), config.capacityBytes());
            return new StashServer(rpcServer, store, committer, monitor, metrics);
        } catch (IOException | RuntimeException e) {
            // The same order as close(): stop answering, stop writing, then close the database.
            for (AutoCloseable resource : new AutoCloseable[] {rpcServer, monitor, committer, store, metrics}) {
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
        committer.close();
        store.close();
        metrics.close();
        LOG.info("stash closed");
    }
}
