package io.shardvault.pod;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.admin.AdminConfig;
import io.shardvault.common.admin.AdminServer;
import io.shardvault.common.admin.PrometheusText;
import io.shardvault.common.admin.Readiness;
import io.shardvault.common.config.Settings;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.metrics.ProcessMetrics;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.common.rpc.RpcTransport;
import io.shardvault.common.rpc.RpcTransportConfig;
import io.shardvault.common.testing.AdminScrape;
import io.shardvault.pod.api.PodClient;
import io.shardvault.pod.api.WriteMode;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pods wired as {@link PodMain} wires them: the process registry (JMX + Prometheus) and the admin
 * port, scraped over real HTTP while real RPCs run.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PodAdminTest {
    private static final Logger LOG = LoggerFactory.getLogger(PodAdminTest.class);

    @TempDir
    Path dir;

    private PodConfig pod(int i) {
        return PodConfig.from(Settings.of(Map.of(
                "pod.name", "p" + i,
                "pod.stateDir", dir.resolve("p" + i + "/state").toString(),
                "pod.tomes", dir.resolve("p" + i + "/t0").toString())));
    }

    @Test
    void readyFlipsOnceThePodsServeAndMetricsMoveUnderLoad() throws Exception {
        long seed = System.nanoTime();
        LOG.info("seed={}", seed);
        Random random = new Random(seed);
        AtomicReference<PodHost> serving = new AtomicReference<>();
        try (ProcessMetrics metrics = ProcessMetrics.create("pod", "pod-admin-test");
             AdminServer admin = AdminServer.start(AdminConfig.defaults(), metrics,
                     () -> serving.get() != null ? Readiness.ready() : Readiness.notReady("recovering"));
             RpcTransport transport = RpcTransport.create(RpcTransportConfig.defaults());
             RpcClient rpc = RpcClient.create(transport, RpcClientConfig.defaults())) {
            assertThat(scrape(admin).get("/health/ready").statusCode()).isEqualTo(503);

            try (PodHost host = PodHost.start(List.of(pod(0), pod(1)), RpcTransportConfig.defaults(),
                    RpcClientConfig.defaults(), metrics.registry())) {
                serving.set(host);
                assertThat(scrape(admin).get("/health/ready").statusCode()).isEqualTo(200);

                PrometheusText idle = scrape(admin).metrics();
                assertThat(idle.sum("shardvault_pod_write_latency_seconds_count", "pod", "p0")).contains(0.0);
                assertThat(idle.find("shardvault_pod_unflushed_bytes", "service", "pod", "node", "pod-admin-test")).hasSize(2);
                assertThat(idle.find("shardvault_pod_purge_queue_depth")).hasSize(2);

                PodClient client = new PodClient(rpc);
                int writes = 5 + random.nextInt(10);
                for (int i = 0; i < writes; i++) {
                    int podIndex = i % 2;
                    byte[] data = new byte[1 + random.nextInt(4096)];
                    random.nextBytes(data);
                    client.write(host.pods().get(podIndex).localAddress(), new ShardId(0, i, podIndex), 0,
                            Crc32c.of(data), WriteMode.DURABLE, Unpooled.wrappedBuffer(data)).get(60, TimeUnit.SECONDS);
                }
                ByteBuf read = client.read(host.pods().get(0).localAddress(), new ShardId(0, 0, 0), 0, 1)
                        .get(60, TimeUnit.SECONDS);
                read.release();
                byte[] bad = {1, 2, 3};
                Throwable crc = client.write(host.pods().get(1).localAddress(), new ShardId(0, 777, 1), 0,
                        Crc32c.of(bad) ^ 1, WriteMode.DURABLE, Unpooled.wrappedBuffer(bad))
                        .handle((ok, e) -> e).get(60, TimeUnit.SECONDS);
                assertThat(RpcException.from(crc).code()).isIn(ErrorCode.CHECKSUM_MISMATCH, ErrorCode.CORRUPT,
                        ErrorCode.BAD_REQUEST);

                PrometheusText loaded = scrape(admin).metrics();
                assertThat(loaded.sum("shardvault_pod_write_latency_seconds_count", "mode", "durable"))
                        .contains((double) writes);
                assertThat(loaded.sum("shardvault_pod_crc_failures_total", "pod", "p1", "where", "write")).contains(1.0);
                assertThat(loaded.sum("shardvault_pod_crc_failures_total", "pod", "p0")).contains(0.0);

                ObjectName unflushed = ManagementFactory.getPlatformMBeanServer()
                        .queryNames(new ObjectName("io.shardvault:*"), null).stream()
                        .filter(n -> n.toString().contains("shardvaultPodUnflushedBytes")).findFirst()
                        .orElseThrow(() -> new AssertionError("no pod unflushed bytes MBean under io.shardvault"));
                assertThat(ManagementFactory.getPlatformMBeanServer().getAttribute(unflushed, "Value"))
                        .isInstanceOf(Number.class);
                serving.set(null);
            }
            assertThat(scrape(admin).get("/health/ready").statusCode()).isEqualTo(503);
        }
    }

    private static AdminScrape scrape(AdminServer admin) {
        InetSocketAddress a = admin.localAddress();
        return new AdminScrape(a.getHostString() + ":" + a.getPort());
    }
}
