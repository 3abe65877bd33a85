package io.shardvault.common.metrics;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.jmx.JmxConfig;
import io.micrometer.jmx.JmxMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;

/**
 * The meter registry of one process: a composite of a JMX registry (MBeans under
 * {@value #JMX_DOMAIN}, for JConsole and VisualVM) and a Prometheus registry (scraped through
 * {@link #scrape()}). Create one per process, hand {@link #registry()} to every component through
 * its constructor, and close it last.
 *
 * <p>Every meter gets the common tags {@code service} (stash, pod, coordinator) and {@code node}
 * (the node's name, so one Prometheus server can tell the processes of a host apart). Timers named
 * {@code shardvault.*} publish percentile histograms, so latency quantiles can be aggregated across
 * nodes in Prometheus ({@code histogram_quantile}); timers elsewhere keep what their builder asked for.
 *
 * <p>Timers, distribution summaries and long task timers are Prometheus-only: the JMX registry is
 * backed by Dropwizard, whose timers put every sample into a decaying reservoir (a skip-list
 * insert per {@code record}), and that cost about a millisecond of CPU per PUT across a cluster's
 * processes (issue #18) for numbers nobody read over JMX. Counters, gauges and function meters
 * stay on both sides; the admin CLI and JConsole read only those.
 *
 * <p>The JVM's own meters (heap and other memory pools, GC pauses, threads, classes, the process's CPU,
 * file descriptors, uptime: Micrometer's binders, {@code jvm_*}, {@code process_*}, {@code system_*}) go
 * to Prometheus only, with the same tags: JConsole reads the platform MBeans for those already.
 *
 * <p>Thread-safe. Meters are in memory only: nothing survives the process. After {@link #close()}
 * the MBeans are unregistered and the registry no longer records.
 */
public final class ProcessMetrics implements AutoCloseable {
    /** The JMX domain of every shardvault MBean, meters included. */
    public static final String JMX_DOMAIN = "io.shardvault";
    /** Timers whose names start with this publish percentile histograms. */
    public static final String HISTOGRAM_PREFIX = "shardvault.";

    private final CompositeMeterRegistry composite;
    private final JmxMeterRegistry jmx;
    private final PrometheusMeterRegistry prometheus;
    /** Owns GC notification listeners, released at {@link #close()}. */
    private final JvmGcMetrics gc;

    private ProcessMetrics(CompositeMeterRegistry composite, JmxMeterRegistry jmx, PrometheusMeterRegistry prometheus,
                           JvmGcMetrics gc) {
        this.composite = composite;
        this.jmx = jmx;
        this.prometheus = prometheus;
        this.gc = gc;
    }

    /**
     * Creates the registries and starts publishing over JMX.
     *
     * @param service the service kind, e.g. {@code stash} or {@code pod}; the {@code service} tag
     * @param node this process's name, e.g. its host:port; the {@code node} tag
     */
    public static ProcessMetrics create(String service, String node) {
        requireNonBlank(service, "service");
        requireNonBlank(node, "node");
        JmxMeterRegistry jmx = new JmxMeterRegistry(new JmxConfig() {
            @Override
            public String get(String key) {
                return null;
            }

            @Override
            public String domain() {
                return JMX_DOMAIN;
            }
        }, Clock.SYSTEM);
        jmx.config().meterFilter(noDistributionsOverJmx());
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        CompositeMeterRegistry composite = new CompositeMeterRegistry(Clock.SYSTEM);
        // Filters go on the composite before any meter exists: the children receive the filtered id
        // and distribution config, and a filter added later would not reach meters already made.
        composite.config().commonTags("service", service, "node", node).meterFilter(histogramsForShardvaultTimers());
        composite.add(jmx);
        composite.add(prometheus);
        Tags tags = Tags.of("service", service, "node", node);
        new JvmMemoryMetrics(tags).bindTo(prometheus);
        new JvmThreadMetrics(tags).bindTo(prometheus);
        new ClassLoaderMetrics(tags).bindTo(prometheus);
        new ProcessorMetrics(tags).bindTo(prometheus);
        new FileDescriptorMetrics(tags).bindTo(prometheus);
        new UptimeMetrics(tags).bindTo(prometheus);
        JvmGcMetrics gc = new JvmGcMetrics(tags);
        gc.bindTo(prometheus);
        return new ProcessMetrics(composite, jmx, prometheus, gc);
    }

    /** The registry to register meters with; publishes to JMX and Prometheus. */
    public MeterRegistry registry() {
        return composite;
    }

    /** The current value of every meter, in the Prometheus text exposition format (version 0.0.4). */
    public String scrape() {
        return prometheus.scrape();
    }

    /** The content type of {@link #scrape()}. */
    public static String scrapeContentType() {
        return "text/plain; version=0.0.4; charset=utf-8";
    }

    @Override
    public void close() {
        gc.close();
        composite.close();
        jmx.close();
        prometheus.close();
    }

    /** Keeps timers and distribution summaries off the JMX registry (see the class comment). */
    static MeterFilter noDistributionsOverJmx() {
        return MeterFilter.deny(id -> id.getType() == Meter.Type.TIMER
                || id.getType() == Meter.Type.DISTRIBUTION_SUMMARY
                || id.getType() == Meter.Type.LONG_TASK_TIMER);
    }

    static MeterFilter histogramsForShardvaultTimers() {
        return new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                if (id.getType() == Meter.Type.TIMER && id.getName().startsWith(HISTOGRAM_PREFIX)) {
                    return DistributionStatisticConfig.builder().percentilesHistogram(true).build().merge(config);
                }
                return config;
            }
        };
    }

    /**
     * This host's name, for the {@code node} tag: {@code $HOSTNAME} when set, else the name the
     * resolver gives the local host, else {@code localhost}.
     */
    public static String hostName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    private static void requireNonBlank(String value, String name) {
        Objects.requireNonNull(value, name);
        if (value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank");
        }
    }
}
