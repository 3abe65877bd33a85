package io.shardvault.pod;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.ShardId;
import io.shardvault.common.config.Settings;
import io.shardvault.pod.internal.DirectTomeIo;
import io.shardvault.pod.internal.FaultTomeIo;
import io.shardvault.pod.internal.PodNode;
import io.shardvault.pod.internal.StashClientAccess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The pod's fault scenarios against a real stash server. */
@Timeout(180)
class PodStashFaultTest {
    private static final Logger LOG = LoggerFactory.getLogger(PodStashFaultTest.class);

    @TempDir
    Path dir;

    @Test
    void powerLossLosesUnflushedShardsAndRecoveryRestoresThemBitExactThenPurgesTheStash() throws Exception {
        long seed = System.nanoTime();
        LOG.info("seed={}", seed);
        Random random = new Random(seed);
        try (StashFaultFixture f = new StashFaultFixture(dir)) {
            PodConfig config = f.podConfig("400ms");
            List<FaultTomeIo> disks = List.of(new FaultTomeIo(), new FaultTomeIo());
            PodNode node = PodNode.open(config, disks::get, servers -> new StashClientAccess(f.rpc, servers),
                    new SimpleMeterRegistry(), Clock.systemUTC());
            PodServer pod = PodServer.serve(f.transport, config, node);
            f.assign(pod.localAddress());
            Map<ShardId, byte[]> acked = new LinkedHashMap<>();
            int writes = 150 + random.nextInt(150);
            for (int i = 0; i < writes; i++) {
                ShardId id = new ShardId(StashFaultFixture.VAULT, 5000 + i, StashFaultFixture.SHARD);
                byte[] data = new byte[1 + random.nextInt(64 << 10)];
                random.nextBytes(data);
                f.write(pod.localAddress(), id, data);
                acked.put(id, data);
            }
            // The last writes are acknowledged with every sync held back, so they are certainly unflushed.
            disks.forEach(FaultTomeIo::holdSyncs);
            for (int i = 0; i < 10; i++) {
                // the ids continue the run, so their fan-out directory exists and the writes need no sync
                ShardId id = new ShardId(StashFaultFixture.VAULT, 5000 + writes + i, StashFaultFixture.SHARD);
                byte[] data = new byte[1 + random.nextInt(64 << 10)];
                random.nextBytes(data);
                f.write(pod.localAddress(), id, data);
                acked.put(id, data);
            }
            FaultTomeIo.powerCut(disks, config, pod::halt);

            // No stash copy may be gone unless the pod's copy survived the power loss intact.
            Set<ShardId> stashed = new HashSet<>(f.stashed());
            int lost = 0;
            for (Map.Entry<ShardId, byte[]> e : acked.entrySet()) {
                Path file = node.pathOf(e.getKey());
                if (!Files.exists(file)) {
                    lost++;
                }
                if (!stashed.contains(e.getKey())) {
                    assertThat(file).as("purged shard %s is on the pod", e.getKey()).exists();
                }
            }
            LOG.info("{} writes acknowledged; after the power loss {} shard files are gone and {} are still stashed",
                    writes, lost, stashed.size());
            assertThat(lost).as("the power loss must lose unflushed shards, or this proves nothing").isPositive();
            assertThat(stashed.size()).isGreaterThanOrEqualTo(lost);

            try (PodServer restarted = PodServer.start(f.transport, config, f.rpc, new SimpleMeterRegistry())) {
                for (Map.Entry<ShardId, byte[]> e : acked.entrySet()) {
                    assertThat(f.read(restarted.localAddress(), e.getKey(), e.getValue().length))
                            .as("shard %s", e.getKey()).isEqualTo(e.getValue());
                }
                StashFaultFixture.await("the stash copies purged", () -> f.stashed().isEmpty());
            }
        }
    }

    /**
     * The stash copy of a small file can reach the stash after the pod flushed and purged it (the two are sent
     * at once): the stash acknowledges it without storing it. That copy was never needed: power loss right
     * after takes only what was not synced, and every shard reads back bit-exact from the restarted pod.
     */
    @Test
    void aStashCopyArrivingAfterItsPurgeIsNotKeptAndAPowerLossThenLosesNothing() throws Exception {
        long seed = System.nanoTime();
        LOG.info("seed={}", seed);
        Random random = new Random(seed);
        try (StashFaultFixture f = new StashFaultFixture(dir)) {
            // Each write waits for its flush and purge: send purges at once rather than after the usual linger.
            Map<String, Object> settings = f.podSettings("20ms");
            settings.put("pod.purge.linger", "1ms");
            PodConfig config = PodConfig.from(Settings.of(settings));
            List<FaultTomeIo> disks = List.of(new FaultTomeIo(), new FaultTomeIo());
            PodNode node = PodNode.open(config, disks::get, servers -> new StashClientAccess(f.rpc, servers),
                    new SimpleMeterRegistry(), Clock.systemUTC());
            PodServer pod = PodServer.serve(f.transport, config, node);
            f.assign(pod.localAddress());
            Map<ShardId, byte[]> acked = new LinkedHashMap<>();
            for (int i = 0; i < 10; i++) {
                ShardId id = new ShardId(StashFaultFixture.VAULT, 7000 + i, StashFaultFixture.SHARD);
                byte[] data = new byte[1 + random.nextInt(64 << 10)];
                random.nextBytes(data);
                f.writePodFirst(pod.localAddress(), id, data);
                acked.put(id, data);
            }
            assertThat(f.stashed()).as("late stash copies, purged before they came").isEmpty();

            FaultTomeIo.powerCut(disks, config, pod::halt);
            try (PodServer restarted = PodServer.start(f.transport, config, f.rpc, new SimpleMeterRegistry())) {
                for (Map.Entry<ShardId, byte[]> e : acked.entrySet()) {
                    assertThat(f.read(restarted.localAddress(), e.getKey(), e.getValue().length))
                            .as("shard %s", e.getKey()).isEqualTo(e.getValue());
                }
            }
        }
    }

    @Test
    void purgesQueuedWhileTheStashIsDownAreDeliveredWhenItReturnsAcrossAPodRestart() throws Exception {
        try (StashFaultFixture f = new StashFaultFixture(dir)) {
            // The flusher only runs at close, so every purge event is queued while the stash is down.
            PodConfig config = f.podConfig("10m");
            int n = 40;
            try (PodServer pod = PodServer.start(f.transport, config, f.rpc, new SimpleMeterRegistry())) {
                f.assign(pod.localAddress());
                for (int i = 0; i < n; i++) {
                    ShardId id = new ShardId(StashFaultFixture.VAULT, i, StashFaultFixture.SHARD);
                    f.write(pod.localAddress(), id, ("chunk " + i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
                }
                f.stopStash();
                assertThat(pod.node().unflushedBytes()).isPositive();
            } // a clean close: flushes everything, queues n purge events, which the sender cannot deliver
            PodServer restarted = PodServer.start(f.transport, config, f.rpc, new SimpleMeterRegistry());
            try {
                long queued = restarted.node().purgeQueueDepth();
                LOG.info("{} purge events survived the restart", queued);
                assertThat(queued).isEqualTo(n);
                Thread.sleep(300); // the sender fails and backs off meanwhile
                assertThat(restarted.node().purgeQueueDepth()).isEqualTo(n);
                f.startStash(new java.net.InetSocketAddress("127.0.0.1", f.stashAddress.getPort()));
                StashFaultFixture.await("the backlog delivered",
                        () -> restarted.node().purgeQueueDepth() == 0 && f.stashed().isEmpty());
                for (int i = 0; i < n; i++) {
                    ShardId id = new ShardId(StashFaultFixture.VAULT, i, StashFaultFixture.SHARD);
                    assertThat(f.read(restarted.localAddress(), id, ("chunk " + i).length()))
                            .asString().isEqualTo("chunk " + i);
                }
            } finally {
                restarted.close();
            }
        }
    }

    @Test
    void aPodWithoutItsStashFailsToStartAfterACrashRatherThanServeWithHoles() throws Exception {
        try (StashFaultFixture f = new StashFaultFixture(dir)) {
            Map<String, Object> settings = f.podSettings("10ms");
            settings.put("pod.recovery.timeout", "300ms");
            PodConfig config = PodConfig.from(io.shardvault.common.config.Settings.of(settings));
            PodServer pod = PodServer.start(f.transport, config, f.rpc, new SimpleMeterRegistry());
            f.assign(pod.localAddress());
            pod.halt(); // a crash: no clean-shutdown marker
            f.stopStash();
            org.assertj.core.api.Assertions.assertThatThrownBy(
                    () -> PodServer.start(f.transport, config, f.rpc, new SimpleMeterRegistry()))
                    .isInstanceOf(java.io.IOException.class).hasMessageContaining("UNREACHABLE");
            assertThat(DirectTomeIo.INSTANCE.exists(config.stateDir())).isTrue();
        }
    }
}
