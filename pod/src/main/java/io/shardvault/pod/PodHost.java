package io.shardvault.pod;

import io.micrometer.core.instrument.MeterRegistry;
import io.shardvault.common.admin.Readiness;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.common.rpc.RpcMetrics;
import io.shardvault.common.rpc.RpcTransport;
import io.shardvault.common.rpc.RpcTransportConfig;
import io.shardvault.pod.internal.ScrubLane;
import io.shardvault.stash.api.StashOps;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A process's pod instances: one or many (the local cluster runs a whole 20-pod vault in one
 * process), each with its own port, tomes and state directory, sharing one RPC transport and one
 * client to the stash. Instances recover and start in parallel; if any fails to start, those
 * started are closed and the failure is thrown.
 *
 * <p>Thread-safe. Owns the transport and client it creates.
 */
public final class PodHost implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PodHost.class);

    private final RpcTransport transport;
    private final RpcClient client;
    private final List<PodServer> pods;
    private final ScrubLane scrubLane;

    private PodHost(RpcTransport transport, RpcClient client, List<PodServer> pods, ScrubLane scrubLane) {
        this.transport = transport;
        this.client = client;
        this.pods = List.copyOf(pods);
        this.scrubLane = scrubLane;
    }

    public static PodHost start(List<PodConfig> configs, RpcTransportConfig transportConfig,
                                RpcClientConfig clientConfig, MeterRegistry metrics) throws IOException {
        if (configs.isEmpty()) {
            throw new IllegalArgumentException("a pod host needs at least one pod instance");
        }
        int scrubNice = scrubNice(configs);
        RpcTransport transport = RpcTransport.create(transportConfig);
        RpcClient client = RpcClient.create(transport, clientConfig,
                RpcMetrics.create(metrics, RpcMetrics.opNames(StashOps.METRIC_NAMES)));
        // One scrubbing thread for every instance of the process, each paced to its own rate.
        ScrubLane scrubLane = ScrubLane.start(scrubNice);
        ExecutorService starters = Executors.newFixedThreadPool(Math.min(configs.size(), 8));
        List<CompletableFuture<PodServer>> starting = new ArrayList<>();
        for (PodConfig config : configs) {
            starting.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return PodServer.start(transport, config, client, metrics, scrubLane);
                } catch (IOException e) {
                    throw new CompletionException(e);
                }
            }, starters));
        }
        List<PodServer> started = new ArrayList<>();
        Throwable failure = null;
        for (CompletableFuture<PodServer> f : starting) {
            try {
                started.add(f.join());
            } catch (CompletionException e) {
                failure = failure == null ? e.getCause() : failure;
            }
        }
        starters.shutdown();
        if (failure != null) {
            started.forEach(PodServer::close);
            scrubLane.close();
            client.close();
            transport.close();
            if (failure instanceof IOException io) {
                throw io;
            }
            throw new IOException("a pod instance failed to start: " + failure, failure);
        }
        for (PodServer p : started) {
            LOG.info("pod {} serving on {}", p.config().name(), p.localAddress());
        }
        return new PodHost(transport, client, started, scrubLane);
    }

    /**
     * The process's {@code /health/ready} answer once it serves: ready, or, when a tome of some
     * instance has failed, ready but degraded, naming each failed tome of each instance. Not
     * "not ready": the process still serves its other tomes and instances, and reads from the
     * failed tome; a 503 would make a load balancer drop all of that for one disk. The
     * {@code shardvault.pod.tomes.failed} gauge is what alerts.
     */
    public Readiness readiness() {
        List<String> failed = new ArrayList<>();
        for (PodServer p : pods) {
            for (String tome : p.failedTomes()) {
                failed.add("pod " + p.config().name() + " " + tome);
            }
        }
        return failed.isEmpty() ? Readiness.ready() : Readiness.degraded(String.join("; ", failed));
    }

    /** The instances, in configuration order. */
    public List<PodServer> pods() {
        return pods;
    }

    @Override
    public void close() {
        pods.parallelStream().forEach(PodServer::close);
        scrubLane.close();
        client.close();
        transport.close();
    }

    /** The one scrub thread's nice value, which every instance must give alike. */
    private static int scrubNice(List<PodConfig> configs) {
        int nice = configs.get(0).scrubNice();
        for (PodConfig c : configs) {
            if (c.scrubNice() != nice) {
                throw new IllegalArgumentException("pod.scrub.nice is " + nice + " for " + configs.get(0).name()
                        + " but " + c.scrubNice() + " for " + c.name() + ": one thread scrubs every instance of "
                        + "a process, so they must agree");
            }
        }
        return nice;
    }
}
