package io.shardvault.coordinator.data;

import static io.shardvault.coordinator.data.DataPathTesting.randomBytes;
import static io.shardvault.coordinator.data.DataPathTesting.read;
import static io.shardvault.coordinator.data.DataPathTesting.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.ShardvaultException;
import io.shardvault.common.erasure.ErasureCodecs;
import io.shardvault.common.erasure.ErasureConfig;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.coordinator.data.internal.ShardDataPath;
import io.shardvault.coordinator.testing.MiniCluster;
import io.shardvault.pod.api.PodClient;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write placement honours {@link WritablePods}: a refused pod gets no shard of a new file (in
 * stash and durable mode), the shard is recorded missing, the file still reads, and refusing more
 * pods than the quorum spares fails the write.
 */
@Timeout(300)
class WritablePodsPlacementTest {
    private static final Logger LOG = LoggerFactory.getLogger(WritablePodsPlacementTest.class);

    @TempDir
    static Path dir;
    static MiniCluster cluster;
    static RpcClient rpc;
    static Random random;
    static final Set<Integer> refused = ConcurrentHashMap.newKeySet();
    static ShardDataPath path;

    @BeforeAll
    static void start() throws IOException {
        long seed = Long.getLong("test.seed", System.nanoTime());
        LOG.info("seed {} (rerun with -Dtest.seed={})", seed, seed);
        random = new Random(seed);
        MiniCluster.Options options = MiniCluster.Options.defaults();
        cluster = MiniCluster.start(dir, options);
        AtomicLong ids = new AtomicLong(5000);
        WritablePods pods = (vaultId, shard) -> refused.contains(shard) ? Optional.of("drained by a test")
                : Optional.empty();
        path = ShardDataPath.create(options.dataPath().withStragglerGrace(Duration.ofSeconds(5)),
                VaultDirectory.of(List.of(cluster.vault())),
                vaultId -> java.util.concurrent.CompletableFuture.completedFuture(ids.getAndIncrement()),
                ErasureCodecs.create(ErasureConfig.defaults()), cluster.transport(), RpcClientConfig.defaults(),
                cluster.stashAddresses(), pods, cluster.assignments(), cluster.metrics());
        rpc = RpcClient.create(cluster.transport(), RpcClientConfig.defaults());
    }

    @AfterAll
    static void stop() {
        if (path != null) {
            path.close();
        }
        if (rpc != null) {
            rpc.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static boolean podHolds(int shard, long fileId) {
        List<ShardId> ids = new PodClient(rpc).list(cluster.podAddress(shard),
                Optional.of(new ShardId(MiniCluster.VAULT_ID, fileId - 1, shard)), 1).join().ids();
        return !ids.isEmpty() && ids.get(0).fileId() == fileId;
    }

    @Test
    void aRefusedPodGetsNoShardAndTheShardIsRecordedMissing() throws Exception {
        refused.clear();
        refused.add(6);
        try {
            for (int size : new int[] {100, 200_000, 3 << 20}) {
                byte[] data = randomBytes(random, size);
                StoredFile f = write(path, data);
                assertThat(f.missingShards()).as("missing shards of a %d-byte file", size).containsExactly(6);
                assertThat(podHolds(6, f.fileId())).as("the refused pod holds file %d", f.fileId()).isFalse();
                assertThat(podHolds(7, f.fileId())).as("pod 7 holds file %d", f.fileId()).isTrue();
                assertThat(read(path, f)).isEqualTo(data);
            }
        } finally {
            refused.clear();
        }
        StoredFile f = write(path, randomBytes(random, 1000));
        assertThat(f.missingShards()).isEmpty();
        assertThat(podHolds(6, f.fileId())).isTrue();
    }

    @Test
    void refusingMorePodsThanTheQuorumSparesFailsTheWrite() {
        refused.clear();
        refused.addAll(Set.of(1, 2));
        try {
            assertThatThrownBy(() -> write(path, randomBytes(random, 5000)))
                    .isInstanceOfSatisfying(ShardvaultException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.UNAVAILABLE);
                        assertThat(e.getMessage()).contains("drained by a test");
                    });
        } finally {
            refused.clear();
        }
    }
}
