package io.shardvault.pod;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.admin.Readiness;
import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.Settings;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.common.rpc.RpcTransport;
import io.shardvault.common.rpc.RpcTransportConfig;
import io.shardvault.pod.api.PodClient;
import io.shardvault.pod.api.WriteMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(120)
class PodHostTest {
    @TempDir
    Path dir;

    private PodConfig pod(int i) {
        return PodConfig.from(Settings.of(Map.of(
                "pod.name", "p" + i,
                "pod.stateDir", dir.resolve("p" + i + "/state").toString(),
                "pod.tomes", dir.resolve("p" + i + "/t0") + "," + dir.resolve("p" + i + "/t1"))));
    }

    @Test
    void oneProcessHostsSeveralPodsEachWithItsOwnPortTomesAndState() throws IOException {
        int n = 4;
        List<PodConfig> configs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            configs.add(pod(i));
        }
        try (PodHost host = PodHost.start(configs, RpcTransportConfig.defaults(), RpcClientConfig.defaults(),
                new SimpleMeterRegistry());
             RpcTransport transport = RpcTransport.create(RpcTransportConfig.defaults());
             RpcClient rpc = RpcClient.create(transport, RpcClientConfig.defaults())) {
            PodClient client = new PodClient(rpc);
            Set<Integer> ports = new HashSet<>();
            for (int i = 0; i < n; i++) {
                PodServer pod = host.pods().get(i);
                ports.add(pod.localAddress().getPort());
                byte[] data = ("shard " + i).getBytes(StandardCharsets.UTF_8);
                client.write(pod.localAddress(), new ShardId(0, 9, i), 0, Crc32c.of(data), WriteMode.DURABLE,
                        Unpooled.wrappedBuffer(data)).join();
            }
            assertThat(ports).hasSize(n);
            for (int k = 0; k < n; k++) {
                int i = k;
                PodServer pod = host.pods().get(i);
                assertThat(client.list(pod.localAddress(), Optional.empty(), 100).join().ids())
                        .containsExactly(new ShardId(0, 9, i));
                ByteBuf b = client.read(pod.localAddress(), new ShardId(0, 9, i), 0, 7).join();
                try {
                    assertThat(ByteBufUtil.getBytes(b)).asString(StandardCharsets.UTF_8).isEqualTo("shard " + i);
                } finally {
                    b.release();
                }
                assertThatThrownBy(() -> client.read(pod.localAddress(), new ShardId(0, 9, (i + 1) % n), 0, 1).join())
                        .isInstanceOf(CompletionException.class)
                        .satisfies(e -> assertThat(RpcException.from(e).code()).isEqualTo(ErrorCode.NOT_FOUND));
            }
        }
    }

    @Test
    void aTomeStampedForAnotherPodIsRefused() throws IOException {
        PodConfig first = pod(0);
        try (PodHost host = PodHost.start(List.of(first), RpcTransportConfig.defaults(), RpcClientConfig.defaults(),
                new SimpleMeterRegistry())) {
            assertThat(host.pods()).hasSize(1);
        }
        PodConfig swapped = new PodConfig(first.name(), first.bind(), first.stateDir(),
                List.of(first.tomes().get(1), first.tomes().get(0)), first.flushInterval(), first.flushBatchShards(), first.maxUnflushedBytes(), first.purgeSegmentBytes(),
                first.purgeBatchSize(), first.purgeRetryMin(), first.purgeRetryMax(), first.purgeSendTimeout(),
                first.purgeLinger(), first.recoveryTimeout(), first.simulatedHddSeed(), first.rpc(),
                first.scrubBytesPerSecond(), first.scrubInterval(), first.scrubNice(), first.openShardFiles());
        assertThatThrownBy(() -> PodHost.start(List.of(swapped), RpcTransportConfig.defaults(),
                RpcClientConfig.defaults(), new SimpleMeterRegistry()))
                .isInstanceOf(IOException.class).hasMessageContaining("reordered");
    }

    @Test
    void configurationIsParsedAndValidated() {
        PodConfig c = PodConfig.from(Settings.of(Map.of(
                "pod.tomes", "/a,/b,/c",
                "pod.simulatedHdd.tomes", "0,2",
                "pod.flush.interval", "5ms")));
        assertThat(c.tomes()).extracting(TomeConfig::simulatedHdd).containsExactly(true, false, true);
        assertThat(c.flushInterval()).isEqualTo(Duration.ofMillis(5));
        assertThat(PodConfig.from(Settings.empty()).tomes()).extracting(TomeConfig::simulatedHdd).containsExactly(false);
        assertThatThrownBy(() -> PodConfig.from(Settings.of(Map.of("pod.simulatedHdd.tomes", "3"))))
                .isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> PodConfig.from(Settings.of(Map.of("pod.recovery.timeout", "1x"))))
                .isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> Settings.of(Map.of("pod.flushh.interval", "5ms")).rejectUnknown(PodConfigKeys.all()))
                .isInstanceOf(ConfigException.class);
    }

    @Test
    void theRemovedSlotAndStashSettingsFailWithWhereTheirValuesComeFromNow() {
        for (String key : List.of("pod.slots", "pod.stash.servers")) {
            assertThatThrownBy(() -> PodConfig.from(Settings.of(Map.of(key, "none"))))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining(key + " is no longer a pod setting")
                    .hasMessageContaining("catalog's cluster map");
        }
    }

    @Test
    void aFailedTomeLeavesTheProcessReadyButDegradedNamingPodAndTome() throws IOException {
        List<PodConfig> configs = List.of(pod(0), pod(1));
        // The record the flusher writes when it fails a tome (docs/POD.md), left from an earlier run.
        Path state = dir.resolve("p1/state");
        Files.createDirectories(state);
        Files.writeString(state.resolve("failed-tome-1"), "shardvault failed tome v1\npod=p1\ntome=1\n"
                + "directory=" + dir.resolve("p1/t1") + "\nfailedAt=2026-11-22T02:20:20Z\n"
                + "reason=shard 1:7:3 failed its fsync and its stash copy is gone\n");
        try (PodHost host = PodHost.start(configs, RpcTransportConfig.defaults(), RpcClientConfig.defaults(),
                new SimpleMeterRegistry())) {
            Readiness ready = host.readiness();
            assertThat(ready.isReady()).as("still serves its other tomes and pods").isTrue();
            assertThat(ready.reason()).isEqualTo("ready, degraded: pod p1 tome 1 (" + dir.resolve("p1/t1") + "): "
                    + "shard 1:7:3 failed its fsync and its stash copy is gone (failed at 2026-11-22T02:20:20Z; "
                    + "recorded in " + state.resolve("failed-tome-1") + ")");
            assertThat(host.pods().get(1).stats().failedTomes()).hasSize(1);
            assertThat(host.pods().get(0).stats().failedTomes()).isEmpty();
        }
        Files.delete(state.resolve("failed-tome-1"));
        try (PodHost host = PodHost.start(configs, RpcTransportConfig.defaults(), RpcClientConfig.defaults(),
                new SimpleMeterRegistry())) {
            assertThat(host.readiness()).isEqualTo(Readiness.ready());
        }
    }
}
