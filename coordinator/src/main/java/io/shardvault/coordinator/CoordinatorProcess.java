package io.shardvault.coordinator;

import io.shardvault.common.admin.AdminConfig;
import io.shardvault.common.admin.AdminServer;
import io.shardvault.common.admin.Readiness;
import io.shardvault.common.config.Settings;
import io.shardvault.common.metrics.ProcessMetrics;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * What a coordinator process runs besides the {@link Coordinator}: the process's meter registry
 * ({@link ProcessMetrics}: JMX and Prometheus, tags {@code service=coordinator} and {@code node})
 * and its admin HTTP port ({@code admin.bind}: {@code /metrics}, {@code /health/live},
 * {@code /health/ready}). The admin port opens first, so that an orchestrator sees "live, not
 * ready" while the catalog elects a leader and the coordinator starts.
 *
 * <pre>
 *  openAdmin() ──▶ ADMIN (ready: 503 "starting") ──startCoordinator()──▶ RUNNING (ready: the coordinator's probe)
 *  close() ──▶ ready: 503 "shutting down" ──▶ coordinator closed ──▶ admin port closed ──▶ meters closed
 * </pre>
 *
 * <p>Thread-safe.
 */
public final class CoordinatorProcess implements AutoCloseable {
    private final Settings settings;
    private final ProcessMetrics metrics;
    private final AdminServer admin;
    private volatile Coordinator coordinator;
    private volatile boolean closing;

    private CoordinatorProcess(Settings settings, ProcessMetrics metrics, AdminServer admin) {
        this.settings = settings;
        this.metrics = metrics;
        this.admin = admin;
    }

    /**
     * Creates the registry and opens the admin port; the coordinator is not started yet.
     *
     * @throws IOException when the admin address cannot be bound
     */
    public static CoordinatorProcess openAdmin(Settings settings, String nodeName) throws IOException {
        Objects.requireNonNull(settings, "settings");
        AdminConfig adminConfig = AdminConfig.from(settings);
        ProcessMetrics metrics = ProcessMetrics.create("coordinator", nodeName);
        CoordinatorProcess[] self = new CoordinatorProcess[1];
        try {
            AdminServer admin = AdminServer.start(adminConfig, metrics, () -> self[0].readiness());
            self[0] = new CoordinatorProcess(settings, metrics, admin);
            return self[0];
        } catch (IOException | RuntimeException e) {
            metrics.close();
            throw new IOException("cannot open the admin port on " + adminConfig.bind() + ": " + e.getMessage(), e);
        }
    }

    /** Starts the coordinator (see {@link Coordinator#start}); returns once its S3 endpoint listens. */
    public Coordinator startCoordinator() throws IOException {
        if (coordinator != null) {
            throw new IllegalStateException("the coordinator is already started");
        }
        Coordinator started = Coordinator.start(settings, metrics.registry());
        if (closing) {
            started.close();
            throw new IOException("the process is closing");
        }
        coordinator = started;
        return started;
    }

    /** The admin port's address (the real port when 0 was asked for). */
    public InetSocketAddress adminAddress() {
        return admin.localAddress();
    }

    /** The process's meters. */
    public ProcessMetrics metrics() {
        return metrics;
    }

    /** {@code /health/ready}: not ready while starting or closing, else the coordinator's answer. */
    public Readiness readiness() {
        if (closing) {
            return Readiness.notReady("shutting down");
        }
        Coordinator c = coordinator;
        return c == null ? Readiness.notReady("starting: waiting for the catalog to elect a leader and answer, and"
                + " for its cluster map (shardvault init --map)") : c.readiness();
    }

    @Override
    public void close() {
        closing = true;
        Coordinator c = coordinator;
        if (c != null) {
            c.close();
        }
        admin.close();
        metrics.close();
    }
}
