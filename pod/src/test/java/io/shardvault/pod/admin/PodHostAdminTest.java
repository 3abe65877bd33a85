package io.shardvault.pod.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ShardId;
import io.shardvault.common.config.Settings;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.common.rpc.RpcTransport;
import io.shardvault.common.rpc.RpcTransportConfig;
import io.shardvault.pod.api.PodAssignment;
import io.shardvault.pod.api.PodClient;
import io.shardvault.pod.PodConfig;
import io.shardvault.pod.PodHost;
import io.shardvault.pod.api.PodSlot;
import io.shardvault.pod.api.WriteMode;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.management.JMX;
import javax.management.MBeanServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The PodHost MXBean shows each instance's unflushed bytes and purge queue, and answers retryPurgesNow. */
@Timeout(120)
class PodHostAdminTest {

    private static PodConfig pod(Path dir, int i) {
        return PodConfig.from(Settings.of(Map.of(
                "pod.name", "p" + i,
                "pod.stateDir", dir.resolve("p" + i + "/state").toString(),
                "pod.tomes", dir.resolve("p" + i + "/t0").toString(),
                "pod.flush.interval", "10m")));
    }

    @Test
    void showsUnflushedBytesPerInstanceAndUnregistersOnClose(@TempDir Path dir) throws Exception {
        MBeanServer platform = ManagementFactory.getPlatformMBeanServer();
        try (PodHost host = PodHost.start(List.of(pod(dir, 0), pod(dir, 1)), RpcTransportConfig.defaults(),
                RpcClientConfig.defaults(), new SimpleMeterRegistry());
             RpcTransport transport = RpcTransport.create(RpcTransportConfig.defaults());
             RpcClient rpc = RpcClient.create(transport, RpcClientConfig.defaults())) {
            try (PodHostAdmin admin = PodHostAdmin.start(Settings.empty(), host)) {
                assertThat(admin.mbeanServer()).isSameAs(platform);
                PodHostMXBean bean = JMX.newMXBeanProxy(platform, PodHostAdmin.NAME, PodHostMXBean.class);
                assertThat(bean.getUnflushedBytes()).isZero();
                byte[] data = new byte[4096];
                // Instance 1 is assigned slot 0:1 and a stash (none listens there: its purges wait).
                new PodClient(rpc).assign(host.pods().get(1).localAddress(), new PodAssignment(
                        List.of(new PodSlot(0, 1)), List.of(new InetSocketAddress("127.0.0.1", 1)))).join();
                new PodClient(rpc).write(host.pods().get(1).localAddress(), new ShardId(0, 7, 1), 0, Crc32c.of(data),
                        WriteMode.BUFFERED, Unpooled.wrappedBuffer(data)).join();
                // The chunk plus the shard file's own header and CRC.
                long unflushed = bean.getUnflushedBytes();
                assertThat(unflushed).isBetween(4096L, 4096L + 4096);
                assertThat(bean.getPods()).extracting(PodInstanceView::getName, PodInstanceView::getUnflushedBytes)
                        .containsExactly(org.assertj.core.groups.Tuple.tuple("p0", 0L),
                                org.assertj.core.groups.Tuple.tuple("p1", unflushed));
                assertThat(bean.getPods()[0].getSlots()).isEqualTo("unassigned");
                assertThat(bean.getPods()[1].getSlots()).isEqualTo("0:1");
                assertThat(bean.getPurgeQueueDepth()).isZero();
                // Only the assigned instance has a stash to deliver to.
                assertThat(bean.retryPurgesNow()).isEqualTo(1);
                assertThat(platform.getMBeanInfo(PodHostAdmin.NAME).getDescription()).contains("purge");
            }
            assertThat(platform.isRegistered(PodHostAdmin.NAME)).isFalse();
        }
    }
}
