package io.shardvault.stash;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.admin.AdminConfig;
import io.shardvault.common.admin.AdminServer;
import io.shardvault.common.admin.PrometheusText;
import io.shardvault.common.admin.Readiness;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.metrics.ProcessMetrics;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.common.rpc.RpcTransport;
import io.shardvault.common.rpc.RpcTransportConfig;
import io.shardvault.common.testing.AdminScrape;
import io.shardvault.stash.api.StashClient;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A stash wired as {@link StashMain} wires it: the process registry (JMX + Prometheus) and the
 * admin port, scraped over real HTTP while real RPCs run.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StashAdminTest {
    private static final Logger LOG = LoggerFactory.getLogger(StashAdminTest.class);

    @TempDir
    Path dir;

    @Test
    void readyFlipsWhenTheStashOpensAndMetricsMoveUnderLoad() throws Exception {
        long seed = System.nanoTime();
        LOG.info("seed={}", seed);
        Random random = new Random(seed);
        AtomicReference<StashServer> serving = new AtomicReference<>();
        try (ProcessMetrics metrics = ProcessMetrics.create("stash", "stash-admin-test");
             AdminServer admin = AdminServer.start(AdminConfig.defaults(), metrics,
                     () -> serving.get() != null ? Readiness.ready() : Readiness.notReady("opening the database"));
             RpcTransport transport = RpcTransport.create(new RpcTransportConfig(true, 2));
             RpcClient rpc = RpcClient.create(transport, RpcClientConfig.defaults())) {
            HttpResponse<String> before = scrape(admin).get("/health/ready");
            assertThat(before.statusCode()).isEqualTo(503);
            assertThat(before.body()).contains("opening the database");

            StashServer server = StashServer.start(transport, StashConfig.defaults(dir),
                    new InetSocketAddress("127.0.0.1", 0), metrics.registry());
            try {
                serving.set(server);
                assertThat(scrape(admin).get("/health/ready").statusCode()).isEqualTo(200);
                assertThat(scrape(admin).get("/health/live").statusCode()).isEqualTo(200);

                PrometheusText idle = scrape(admin).metrics();
                assertThat(idle.sum("shardvault_stash_entries", "service", "stash")).contains(0.0);
                assertThat(idle.sum("shardvault_stash_full_total")).contains(0.0);
                assertThat(idle.find("shardvault_stash_oldest_entry_age_seconds")).isNotEmpty();

                StashClient client = new StashClient(rpc);
                int puts = 10 + random.nextInt(20);
                long bytes = 0;
                for (int i = 0; i < puts; i++) {
                    byte[] data = new byte[1 + random.nextInt(8192)];
                    random.nextBytes(data);
                    bytes += data.length;
                    client.put(server.localAddress(), new ShardId(1, i, i % 4), 0, Crc32c.of(data),
                            Unpooled.wrappedBuffer(data)).get(60, TimeUnit.SECONDS);
                }
                Throwable missing = client.get(server.localAddress(), new ShardId(1, 999_999, 0))
                        .handle((entry, e) -> {
                            if (entry != null) {
                                entry.close();
                            }
                            return e;
                        }).get(60, TimeUnit.SECONDS);
                assertThat(RpcException.from(missing instanceof CompletionException ? missing.getCause() : missing)
                        .code()).isEqualTo(ErrorCode.NOT_FOUND);

                PrometheusText loaded = scrape(admin).metrics();
                assertThat(loaded.sum("shardvault_stash_entries", "node", "stash-admin-test"))
                        .contains((double) puts);
                assertThat(loaded.sum("shardvault_stash_bytes")).contains((double) bytes);
                assertThat(loaded.sum("shardvault_stash_requests_seconds_count", "op", "put", "outcome", "ok"))
                        .contains((double) puts);
                assertThat(loaded.sum("shardvault_stash_requests_seconds_count", "outcome", "NOT_FOUND"))
                        .contains(1.0);
                // shardvault.* timers carry percentile histograms, so quantiles aggregate across nodes.
                assertThat(loaded.find("shardvault_stash_requests_seconds_bucket", "op", "put")).isNotEmpty();
                assertThat(loaded.sum("shardvault_stash_commit_seconds_count").orElseThrow()).isPositive();

                ObjectName entries = ManagementFactory.getPlatformMBeanServer()
                        .queryNames(new ObjectName("io.shardvault:*"), null).stream()
                        .filter(n -> n.toString().contains("shardvaultStashEntries")).findFirst()
                        .orElseThrow(() -> new AssertionError("no stash entries MBean under io.shardvault"));
                assertThat(((Number) ManagementFactory.getPlatformMBeanServer().getAttribute(entries, "Value"))
                        .longValue()).isEqualTo(puts);
            } finally {
                serving.set(null);
                server.close();
            }
            assertThat(scrape(admin).get("/health/ready").statusCode()).isEqualTo(503);
        }
    }

    private static AdminScrape scrape(AdminServer admin) {
        InetSocketAddress a = admin.localAddress();
        return new AdminScrape(a.getHostString() + ":" + a.getPort());
    }
}
