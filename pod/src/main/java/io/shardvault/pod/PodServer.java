package io.shardvault.pod;

import io.micrometer.core.instrument.MeterRegistry;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcMetrics;
import io.shardvault.common.rpc.RpcServer;
import io.shardvault.common.rpc.RpcTransport;
import io.shardvault.pod.api.PodAssignment;
import io.shardvault.pod.api.PodOps;
import io.shardvault.pod.api.PodStats;
import io.shardvault.pod.internal.PodNode;
import io.shardvault.pod.internal.PodRequestHandler;
import io.shardvault.pod.internal.ScrubLane;
import io.shardvault.pod.internal.StashClientAccess;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;

/**
 * One pod instance serving on its own port: its tomes, its state directory, its flusher and purge
 * queue. {@link #start} recovers the instance from the stash before it listens, so a client never
 * sees a pod that has not restored its acknowledged shards.
 *
 * <pre>
 *  start() ──▶ (recovery) ──▶ SERVING ──close()──▶ RPC drained, pending writes flushed ──▶ CLOSED
 * </pre>
 * While it serves, its scrubber runs on a {@link ScrubLane}: the process's one (from {@link PodHost}),
 * or a lane of its own when started without one.
 *
 * <p>Thread-safe.
 */
public final class PodServer implements AutoCloseable {
    private final PodNode node;
    private final RpcServer rpc;
    /** The lane running this instance's scrubber; null when it has none. */
    private final ScrubLane scrubLane;
    private final boolean ownsLane;

    private PodServer(PodNode node, RpcServer rpc, ScrubLane scrubLane, boolean ownsLane) {
        this.node = node;
        this.rpc = rpc;
        this.scrubLane = scrubLane;
        this.ownsLane = ownsLane;
    }

    /**
     * Opens, recovers and starts one instance.
     *
     * @param stashRpc the client used to reach the stash servers of the instance's assignment
     *     (shared by the instances of a process; the caller closes it after the servers)
     * @throws IOException when a tome or the state directory cannot be used, recovery cannot reach
     *     the stash within {@code pod.recovery.timeout}, or the port cannot be bound
     */
    public static PodServer start(RpcTransport transport, PodConfig config, RpcClient stashRpc, MeterRegistry metrics)
            throws IOException {
        ScrubLane lane = ScrubLane.start(config.scrubNice());
        try {
            return start(transport, config, stashRpc, metrics, lane, true);
        } catch (IOException | RuntimeException e) {
            lane.close();
            throw e;
        }
    }

    /**
     * Opens, recovers and starts one instance whose scrubber runs on {@code scrubLane}, the one
     * thread that scrubs all instances of the process (see {@link ScrubLane}); the caller ({@link PodHost})
     * closes the lane after the servers.
     */
    static PodServer start(RpcTransport transport, PodConfig config, RpcClient stashRpc, MeterRegistry metrics,
                                  ScrubLane scrubLane) throws IOException {
        return start(transport, config, stashRpc, metrics, scrubLane, false);
    }

    private static PodServer start(RpcTransport transport, PodConfig config, RpcClient stashRpc,
                                   MeterRegistry metrics, ScrubLane lane, boolean ownsLane) throws IOException {
        return serve(transport, config,
                PodNode.open(config, servers -> new StashClientAccess(stashRpc, servers), metrics),
                RpcMetrics.create(metrics, RpcMetrics.opNames(PodOps.METRIC_NAMES)), lane, ownsLane);
    }

    /** Serves an already opened instance (tests open it over their own tome seams), without scrubbing. */
    static PodServer serve(RpcTransport transport, PodConfig config, PodNode node) throws IOException {
        return serve(transport, config, node, RpcMetrics.none(), null, false);
    }

    private static PodServer serve(RpcTransport transport, PodConfig config, PodNode node, RpcMetrics rpcMetrics,
                                   ScrubLane lane, boolean ownsLane) throws IOException {
        try {
            RpcServer rpc = RpcServer.start(transport, config.rpc(), config.bind(), new PodRequestHandler(node), rpcMetrics);
            if (lane != null) {
                lane.add(node.scrubber());
            }
            return new PodServer(node, rpc, lane, ownsLane);
        } catch (IOException | RuntimeException e) {
            node.close();
            throw e;
        }
    }

    public InetSocketAddress localAddress() {
        return rpc.localAddress();
    }

    public PodConfig config() {
        return node.config();
    }

    /** The instance's STATS, as the RPC answers them. */
    public PodStats stats() throws IOException {
        return node.stats();
    }

    /** The instance's failed tomes, each as {@code tome <index> (<directory>): <reason>}; empty when none. */
    public List<String> failedTomes() {
        return node.failedTomes();
    }

    /** The instance's assignment, if a coordinator assigned one (now or before a restart). */
    public Optional<PodAssignment> assignment() {
        return node.assignment();
    }

    /** Makes the purge sender retry at once; false when the instance runs without a stash. */
    public boolean retryPurgesNow() {
        return node.retryPurgesNow();
    }

    PodNode node() {
        return node;
    }

    /** Stops listening, drains requests in flight, flushes pending writes and stops the purge sender. */
    @Override
    public void close() {
        stopScrubbing();
        rpc.close();
        node.close();
    }

    /** Stops at once without flushing (a crash, for tests). */
    void halt() {
        stopScrubbing();
        rpc.close();
        node.halt();
    }

    private void stopScrubbing() {
        if (scrubLane != null) {
            scrubLane.remove(node.scrubber());
            if (ownsLane) {
                scrubLane.close();
            }
        }
    }
}
