package io.shardvault.coordinator.store;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.config.Settings;
import io.shardvault.common.testing.FreePorts;
import io.shardvault.coordinator.catalog.CatalogConfig;
import io.shardvault.coordinator.catalog.CatalogConfigKeys;
import io.shardvault.coordinator.catalog.CatalogServer;
import io.shardvault.coordinator.catalog.internal.RatisCatalogServer;
import io.shardvault.coordinator.testing.ClusterKeyFile;
import io.shardvault.coordinator.data.DataPath;
import io.shardvault.coordinator.testing.MiniCluster;
import io.shardvault.s3.CannedAcl;
import io.shardvault.s3.Caller;
import io.shardvault.s3.ObjectContent;
import io.shardvault.s3.ObjectLock;
import io.shardvault.s3.ObjectMetadata;
import io.shardvault.s3.ObjectStoreException;
import io.shardvault.s3.PutObjectRequest;
import io.shardvault.s3.WriteCondition;
import io.shardvault.s3.WriteResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A PutObject whose catalog commit times out on the coordinator while the entry still commits
 * later (issue #20, section 1): a three-peer catalog loses both followers between the data write
 * and the commit, so the leader appends the version but cannot commit it within the coordinator's
 * request timeout; a follower comes back and the entry commits. The store must not have deleted
 * the new file's shards on that timeout: the object reads back exact. Before the fix, the store
 * deleted them and the committed version pointed at nothing.
 */
@Timeout(180)
class AmbiguousCommitTest {
    private static final Logger LOG = LoggerFactory.getLogger(AmbiguousCommitTest.class);
    private static final Caller ALICE = new Caller("AKALICE", "alice");
    private static final String BUCKET = "backups";
    private static final String KEY = "object";

    @TempDir
    Path dir;
    private final CatalogServer[] peers = new CatalogServer[3];
    private final List<Map<String, Object>> settings = new ArrayList<>();
    private final MeterRegistry[] registries = new MeterRegistry[3];

    @AfterEach
    void stopPeers() throws IOException {
        for (int i = 0; i < peers.length; i++) {
            stopPeer(i);
        }
    }

    @Test
    void aCommitThatLandsAfterATimeoutKeepsItsShards() throws Exception {
        long seed = Long.getLong("test.seed", System.nanoTime());
        LOG.info("seed {} (rerun with -Dtest.seed={})", seed, seed);
        Random random = new Random(seed);
        startGroup();
        int leader = awaitLeader();
        MiniCluster.Options options = MiniCluster.Options.defaults();
        MiniCluster.runWithNewCluster(dir.resolve("vault"), options, cluster -> {
            DataPath data = cluster.newDataPath(options.dataPath(),
                    new CatalogFileIdSource(peers[leader].catalog(), 16));
            MeterRegistry storeMeters = new SimpleMeterRegistry();
            CatalogObjectStore store = new CatalogObjectStore(peers[leader].catalog(), data, null, 1024,
                    "us-east-1", null, Optional.empty(), storeMeters);
            store.createBucket(ALICE, BUCKET, "us-east-1", false, CannedAcl.PRIVATE).get(30, TimeUnit.SECONDS);
            byte[] first = bytes(random, 300_000);
            put(store, TestBodies.of(first)).get(30, TimeUnit.SECONDS);
            assertThat(get(store, first.length)).isEqualTo(first);

            // The replacement: its body holds its second piece until both followers are gone.
            byte[] second = bytes(random, 500_000);
            GatedBody body = new GatedBody(second);
            long readsBefore = catalogReads(registries[leader]);
            CompletableFuture<WriteResult> put = put(store, body);
            awaitCatalogReadAfter(registries[leader], readsBefore);
            for (int i = 0; i < peers.length; i++) {
                if (i != leader) {
                    stopPeer(i);
                }
            }
            body.open();
            assertThatThrownBy(() -> put.get(60, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOfSatisfying(ObjectStoreException.class, e -> {
                        LOG.info("the put failed as expected: {}", e.toString());
                        assertThat(e.code()).isNotEqualTo(ErrorCode.PRECONDITION_FAILED);
                    });

            // A follower returns: the leader's entry (or the Raft client's resend of it) commits.
            int back = leader == 0 ? 1 : 0;
            peers[back] = RatisCatalogServer.start(CatalogConfig.from(Settings.of(settings.get(back))),
                    new SimpleMeterRegistry());
            String etag = TestBodies.md5(second);
            awaitEtag(store, etag);
            assertThat(get(store, second.length)).as("the version that committed late reads back exact")
                    .isEqualTo(second);
            assertThat(storeMeters.find("shardvault.store.commit.unresolved").counter())
                    .as("the unknown outcome is counted").isNotNull()
                    .satisfies(c -> assertThat(c.count()).isEqualTo(1.0));
        });
    }

    private void startGroup() throws IOException {
        List<Integer> ports = FreePorts.loopback(peers.length);
        StringBuilder spec = new StringBuilder();
        for (int i = 0; i < ports.size(); i++) {
            spec.append(i == 0 ? "" : ",").append("p").append(i + 1).append("=127.0.0.1:").append(ports.get(i));
        }
        for (int i = 0; i < peers.length; i++) {
            settings.add(Map.of(CatalogConfigKeys.PEER_ID.name(), "p" + (i + 1),
                    CatalogConfigKeys.PEERS.name(), spec.toString(),
                    CatalogConfigKeys.DATA_DIR.name(), dir.resolve("catalog-p" + (i + 1)).toString(),
                    CatalogConfigKeys.SECRETS_KEY_FILE.name(), ClusterKeyFile.in(dir).toString(),
                    CatalogConfigKeys.ELECTION_TIMEOUT_MIN.name(), "300ms",
                    CatalogConfigKeys.ELECTION_TIMEOUT_MAX.name(), "600ms",
                    // Short, so that the commit without a majority gives up soon.
                    CatalogConfigKeys.REQUEST_TIMEOUT.name(), "2s"));
            registries[i] = new SimpleMeterRegistry();
            peers[i] = RatisCatalogServer.start(CatalogConfig.from(Settings.of(settings.get(i))), registries[i]);
        }
    }

    private void stopPeer(int i) throws IOException {
        CatalogServer peer = peers[i];
        peers[i] = null;
        if (peer != null) {
            peer.close();
        }
    }

    private int awaitLeader() throws InterruptedException {
        for (int round = 0; round < 600; round++) {
            for (int i = 0; i < peers.length; i++) {
                if (peers[i].isLeader()) {
                    return i;
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no catalog leader");
    }

    /** Linearizable catalog reads completed on a peer (the put's ownership read is one). */
    private static long catalogReads(MeterRegistry registry) {
        return registry.find("shardvault.catalog.read").timers().stream().mapToLong(Timer::count).sum();
    }

    private static void awaitCatalogReadAfter(MeterRegistry registry, long before) throws InterruptedException {
        for (int round = 0; round < 600 && catalogReads(registry) <= before; round++) {
            Thread.sleep(10);
        }
        assertThat(catalogReads(registry)).as("the put's ownership read completed").isGreaterThan(before);
    }

    private static void awaitEtag(CatalogObjectStore store, String etag) throws InterruptedException {
        String seen = null;
        for (int round = 0; round < 300; round++) {
            try {
                seen = store.headObject(ALICE, BUCKET, KEY, null).get(10, TimeUnit.SECONDS).etag();
                if (seen.equals(etag)) {
                    return;
                }
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                LOG.info("head while the group recovers: {}", e.toString());
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the late commit never landed; etag " + seen + ", wanted " + etag);
    }

    private static CompletableFuture<WriteResult> put(CatalogObjectStore store, TestBodies.Body body) {
        return store.putObject(ALICE, new PutObjectRequest(BUCKET, KEY, ObjectMetadata.EMPTY, body,
                WriteCondition.NONE, ObjectLock.NONE, CannedAcl.PRIVATE));
    }

    private static byte[] get(CatalogObjectStore store, long length) throws Exception {
        try (ObjectContent content = store.getObject(ALICE, BUCKET, KEY, null).get(30, TimeUnit.SECONDS)
                .open(0, length)) {
            return TestBodies.readAll(content);
        }
    }

    private static byte[] bytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    /** A body whose pieces after the first wait for {@link #open()}. */
    private static final class GatedBody extends TestBodies.Body {
        private final CompletableFuture<Void> gate = new CompletableFuture<>();
        private boolean first = true;

        GatedBody(byte[] data) {
            super(data);
        }

        void open() {
            gate.complete(null);
        }

        @Override
        public CompletableFuture<ByteBuf> read() {
            if (first) {
                first = false;
                return super.read();
            }
            return gate.thenCompose(v -> super.read());
        }
    }
}
