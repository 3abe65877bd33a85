package io.shardvault.common.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Timer;
import io.shardvault.common.admin.PrometheusText;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProcessMetricsTest {

    @Test
    void metersArePublishedToPrometheusWithCommonTagsAndHistogramsForShardvaultTimers() {
        try (ProcessMetrics metrics = ProcessMetrics.create("stash", "node-a")) {
            Timer ours = Timer.builder("shardvault.test.latency").tag("op", "put").register(metrics.registry());
            Timer theirs = Timer.builder("other.latency").register(metrics.registry());
            Counter counter = Counter.builder("shardvault.test.things").register(metrics.registry());
            ours.record(Duration.ofMillis(3));
            theirs.record(Duration.ofMillis(3));
            counter.increment(5);

            PrometheusText text = PrometheusText.parse(metrics.scrape());
            assertThat(text.sum("shardvault_test_things_total", "service", "stash", "node", "node-a")).contains(5.0);
            assertThat(text.sum("shardvault_test_latency_seconds_count", "op", "put", "service", "stash"))
                    .contains(1.0);
            assertThat(text.find("shardvault_test_latency_seconds_bucket", "op", "put")).hasSizeGreaterThan(10);
            assertThat(text.find("other_latency_seconds_bucket")).isEmpty();
            assertThat(text.sum("other_latency_seconds_count", "node", "node-a")).contains(1.0);
        }
    }

    @Test
    void metersAreMBeansUnderTheShardvaultDomainUntilClosed() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName query = new ObjectName(ProcessMetrics.JMX_DOMAIN + ":*");
        Counter counter;
        try (ProcessMetrics metrics = ProcessMetrics.create("pod", "node-b")) {
            counter = Counter.builder("shardvault.jmx.probe").register(metrics.registry());
            counter.increment(7);
            Set<ObjectName> names = server.queryNames(query, null);
            ObjectName probe = names.stream().filter(n -> n.toString().contains("shardvaultJmxProbe"))
                    .findFirst().orElseThrow(() -> new AssertionError("no probe MBean among " + names));
            assertThat(probe.getDomain()).isEqualTo("io.shardvault");
            assertThat(probe.toString()).contains("node-b").contains("pod");
            assertThat(((Number) server.getAttribute(probe, "Count")).longValue()).isEqualTo(7);
        }
        assertThat(server.queryNames(query, null)).noneMatch(n -> n.toString().contains("shardvaultJmxProbe"));
    }

    @Test
    void timersAndSummariesArePrometheusOnlyWhileCountersAndGaugesStayOnJmx() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName query = new ObjectName(ProcessMetrics.JMX_DOMAIN + ":*");
        try (ProcessMetrics metrics = ProcessMetrics.create("coordinator", "node-c")) {
            Timer timer = Timer.builder("shardvault.jmxless.latency").register(metrics.registry());
            DistributionSummary summary = DistributionSummary.builder("shardvault.jmxless.sizes")
                    .register(metrics.registry());
            LongTaskTimer.builder("shardvault.jmxless.tasks").register(metrics.registry());
            Counter.builder("shardvault.jmxless.things").register(metrics.registry()).increment(2);
            Gauge.builder("shardvault.jmxless.depth", () -> 3).register(metrics.registry());
            timer.record(Duration.ofMillis(4));
            summary.record(42);

            Set<ObjectName> names = server.queryNames(query, null);
            assertThat(names).noneMatch(n -> n.toString().contains("shardvaultJmxlessLatency")
                    || n.toString().contains("shardvaultJmxlessSizes")
                    || n.toString().contains("shardvaultJmxlessTasks"));
            ObjectName gauge = names.stream().filter(n -> n.toString().contains("shardvaultJmxlessDepth"))
                    .findFirst().orElseThrow(() -> new AssertionError("no gauge MBean among " + names));
            assertThat(((Number) server.getAttribute(gauge, "Value")).intValue()).isEqualTo(3);
            assertThat(names).anyMatch(n -> n.toString().contains("shardvaultJmxlessThings"));

            PrometheusText text = PrometheusText.parse(metrics.scrape());
            assertThat(text.sum("shardvault_jmxless_latency_seconds_count", "node", "node-c")).contains(1.0);
            assertThat(text.find("shardvault_jmxless_latency_seconds_bucket")).hasSizeGreaterThan(10);
            assertThat(text.sum("shardvault_jmxless_sizes_sum", "node", "node-c")).contains(42.0);
            assertThat(text.sum("shardvault_jmxless_things_total", "node", "node-c")).contains(2.0);
        }
    }

    @Test
    void theJvmsOwnMetersArePrometheusOnlyWithTheCommonTags() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName query = new ObjectName(ProcessMetrics.JMX_DOMAIN + ":*");
        try (ProcessMetrics metrics = ProcessMetrics.create("pod", "node-j")) {
            System.gc();
            PrometheusText text = PrometheusText.parse(metrics.scrape());
            for (String name : new String[] {"jvm_memory_used_bytes", "jvm_memory_max_bytes", "jvm_threads_live_threads",
                    "process_cpu_usage", "process_cpu_time_ns_total", "process_uptime_seconds",
                    "process_files_open_files", "jvm_classes_loaded_classes"}) {
                assertThat(text.find(name)).as(name).isNotEmpty();
                assertThat(text.sum(name, "service", "pod")).as(name + " tagged").isPresent();
            }
            assertThat(text.sum("jvm_memory_used_bytes", "area", "heap")).hasValueSatisfying(
                    v -> assertThat(v).isPositive());
            assertThat(server.queryNames(query, null)).noneMatch(n -> n.toString().toLowerCase().contains("jvm"));
        }
    }
}
