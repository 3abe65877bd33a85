package io.shardvault.coordinator.data;


import io.netty.buffer.ByteBuf;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.ShardvaultException;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.coordinator.testing.MiniCluster;
import io.shardvault.pod.api.PodClient;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static io.shardvault.coordinator.data.DataPathTesting.randomBytes;
import static io.shardvault.coordinator.data.DataPathTesting.read;
import static io.shardvault.coordinator.data.DataPathTesting.write;
import static io.shardvault.coordinator.data.DataPathTesting.writeUnknownLength;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The write and read paths end to end over a real vault: 20 pods (16+4) and 2 stash servers on
 * loopback. One cluster serves the class; each test leaves every node up again.
 */
@Timeout(300)
class DataPathClusterTest {
    private static final Logger LOG = LoggerFactory.getLogger(DataPathClusterTest.class);
    private static final int MIB = 1 << 20;

    @TempDir
    static Path dir;
    static MiniCluster cluster;
    static DataPath path;
    static long seed;
    static Random random;

    @BeforeAll
    static void startCluster() throws IOException {
        seed = Long.getLong("test.seed", System.nanoTime());
        LOG.info("seed {} (rerun with -Dtest.seed={})", seed, seed);
        random = new Random(seed);
        // These tests assert which shards a write misses; a loaded 2-core machine can hold a healthy
        // pod past the default 200 ms straggler grace, so the grace here only lets down pods go.
        MiniCluster.Options options = MiniCluster.Options.defaults();
        cluster = MiniCluster.start(dir,
                options.withDataPath(options.dataPath().withStragglerGrace(Duration.ofSeconds(5))));
        path = cluster.dataPath();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @AfterEach
    void everyNodeUpAgain() throws IOException {
        for (int i = 0; i < cluster.podCount(); i++) {
            if (!cluster.podUp(i)) {
                cluster.restartPod(i);
            }
        }
    }

    @Test
    void everySizeRoundTrips() throws Exception {
        // Its own data paths: an earlier test's stash restart may have put the shared ones in stash backoff.
        DataPath path = cluster.newDataPath(MiniCluster.Options.defaults().dataPath());
        int[] sizes = {0, 1, 16 * 1024, 256 * 1024, MIB - 1, MIB, MIB + 1};
        for (int size : sizes) {
            byte[] data = randomBytes(random, size);
            StoredFile file = write(path, data);
            assertThat(file.size()).isEqualTo(size);
            assertThat(file.missingShards()).as("size %d", size).isEmpty();
            assertThat(file.stashed()).as("size %d goes to the stash", size).isEqualTo(size > 0 && size <= MIB);
            assertThat(read(path, file)).as("size %d", size).isEqualTo(data);
        }
    }

    @Test
    void unknownLengthsRoundTripAndOnlyThoseEndingWithinTheFirstStripeAreStashed() throws Exception {
        DataPath path = cluster.newDataPath(MiniCluster.Options.defaults().dataPath());
        // A stripe is 16 x 64 KiB = 1 MiB, the stash threshold: a body of exactly one stripe fills it before
        // its end is known, so it goes durably.
        int[] sizes = {0, 1, 100_000, MIB - 1, MIB, MIB + 1, 3 * MIB + 12_345};
        for (int size : sizes) {
            byte[] data = randomBytes(random, size);
            StoredFile file = writeUnknownLength(path, data);
            assertThat(file.size()).as("size %d", size).isEqualTo(size);
            assertThat(file.missingShards()).as("size %d", size).isEmpty();
            assertThat(file.stashed()).as("size %d goes to the stash", size).isEqualTo(size > 0 && size < MIB);
            assertThat(read(path, file)).as("size %d", size).isEqualTo(data);
        }
    }

    @Test
    void fiftyMebibytesRoundTrip() throws Exception {
        byte[] data = randomBytes(random, 50 * MIB);
        long start = System.nanoTime();
        StoredFile file = write(path, data);
        LOG.info("50 MiB written in {} ms", (System.nanoTime() - start) / 1_000_000);
        assertThat(file.stashed()).isFalse();
        assertThat(file.missingShards()).isEmpty();
        assertThat(read(path, file)).isEqualTo(data);
        assertThat(read(path, file, 17 * MIB - 3, 5 * MIB + 7))
                .isEqualTo(java.util.Arrays.copyOfRange(data, 17 * MIB - 3, 22 * MIB + 4));
    }

    @Test
    void rangesAcrossStripeAndChunkBorders() throws Exception {
        int size = 3 * MIB + MIB / 2 + 5;
        byte[] data = randomBytes(random, size);
        StoredFile file = write(path, data);
        int chunk = 64 * 1024;
        long[][] ranges = {
                {0, 1}, {MIB - 10, 20}, {MIB - 1, 2}, {2L * MIB - 1, MIB + 2}, {chunk - 5, 10},
                {MIB + 15L * chunk - 1, 2}, {3L * MIB, size - 3L * MIB}, {size - 1, 1}, {size, 0}, {0, size},
        };
        for (long[] r : ranges) {
            assertThat(read(path, file, r[0], r[1])).as("range %d+%d", r[0], r[1])
                    .isEqualTo(java.util.Arrays.copyOfRange(data, (int) r[0], (int) (r[0] + r[1])));
        }
        for (int i = 0; i < 20; i++) {
            int from = random.nextInt(size);
            int length = random.nextInt(size - from + 1);
            assertThat(read(path, file, from, length)).as("range %d+%d", from, length)
                    .isEqualTo(java.util.Arrays.copyOfRange(data, from, from + length));
        }
        assertThatThrownBy(() -> path.read(file, size - 1, 2)).isInstanceOf(IllegalArgumentException.class);
    }

    /** 256 KiB, the default data.write.largeFileChunkBytes: a 16+4 stripe of 4 MiB. */
    private static final int LARGE_CHUNK = 256 * 1024;
    private static final int LARGE_STRIPE = 16 * LARGE_CHUNK;

    @Test
    void aLargeFileIsCutWithTheLargeChunkAndReadsBackWholeAndInRanges() throws Exception {
        // Two full 4 MiB stripes and a short third one (3 chunks and 5 bytes).
        int size = 2 * LARGE_STRIPE + 3 * LARGE_CHUNK + 5;
        byte[] data = randomBytes(random, size);
        StoredFile file = write(path, data);
        assertThat(file.layout()).isEqualTo(new VaultLayout(cluster.vault().layout().erasure(), LARGE_CHUNK));
        assertThat(file.layout().stripeCount(size)).isEqualTo(3);
        assertThat(file.stashed()).isFalse();
        assertThat(file.missingShards()).isEmpty();
        assertThat(read(path, file)).isEqualTo(data);
        assertRangesReadBack(file, data, new long[][] {
                {0, 1}, {LARGE_CHUNK - 1, 2}, {LARGE_CHUNK - 7, LARGE_CHUNK + 14}, {64 * 1024 - 1, 2},
                {LARGE_STRIPE - 1, 2}, {LARGE_STRIPE - 3, LARGE_CHUNK + 6}, {LARGE_STRIPE + 15L * LARGE_CHUNK - 1, 2},
                {LARGE_STRIPE - 10, LARGE_STRIPE + 20}, {2L * LARGE_STRIPE - 1, 3 * LARGE_CHUNK + 6},
                {size - 1, 1}, {size, 0},
        });
        // Chunk 1 of shard 0 sits where the file's layout says, not where the vault's would put it.
        try (RpcClient rpc = RpcClient.create(cluster.transport(), RpcClientConfig.defaults())) {
            ShardId shard0 = new ShardId(file.vaultId(), file.fileId(), 0);
            ByteBuf stored = new PodClient(rpc).read(cluster.podAddress(0), shard0, LARGE_CHUNK, LARGE_CHUNK)
                    .get(60, TimeUnit.SECONDS);
            try {
                byte[] chunk = new byte[LARGE_CHUNK];
                stored.getBytes(stored.readerIndex(), chunk);
                assertThat(chunk).isEqualTo(
                        java.util.Arrays.copyOfRange(data, LARGE_STRIPE, LARGE_STRIPE + LARGE_CHUNK));
            } finally {
                stored.release();
            }
        }
    }

    @Test
    void aBodyOfUnknownLengthKeepsTheVaultsChunkAndADeclaredOneOfTheSameSizeDoesNot() throws Exception {
        byte[] data = randomBytes(random, 3 * MIB + 12_345);
        StoredFile unknown = writeUnknownLength(path, data);
        assertThat(unknown.layout()).isEqualTo(cluster.vault().layout());
        assertThat(read(path, unknown)).isEqualTo(data);
        StoredFile declared = write(path, data);
        assertThat(declared.layout().chunkBytes()).isEqualTo(LARGE_CHUNK);
        assertThat(read(path, declared)).isEqualTo(data);
        // Exactly one vault stripe is not large: the vault's layout, and the stash.
        StoredFile oneStripe = write(path, randomBytes(random, MIB));
        assertThat(oneStripe.layout()).isEqualTo(cluster.vault().layout());
    }

    @Test
    void aLargeFileReadsBackWithFourPodsDownDecodingItsLargeChunks() throws Exception {
        int size = 2 * LARGE_STRIPE + LARGE_CHUNK + 17;
        byte[] data = randomBytes(random, size);
        StoredFile file = write(path, data);
        assertThat(file.layout().chunkBytes()).isEqualTo(LARGE_CHUNK);
        // Data shards among them: every stripe decodes.
        for (int i : new int[] {1, 2, 9, 17}) {
            cluster.stopPod(i);
        }
        assertThat(read(path, file)).isEqualTo(data);
        assertRangesReadBack(file, data, new long[][] {
                {LARGE_CHUNK - 3, 6}, {2L * LARGE_CHUNK + 100, LARGE_CHUNK}, {LARGE_STRIPE - 5, 10},
                {LARGE_STRIPE + 9L * LARGE_CHUNK - 1, 2}, {2L * LARGE_STRIPE, size - 2L * LARGE_STRIPE},
        });
    }

    private static void assertRangesReadBack(StoredFile file, byte[] data, long[][] ranges) throws Exception {
        for (long[] r : ranges) {
            assertThat(read(path, file, r[0], r[1])).as("range %d+%d", r[0], r[1])
                    .isEqualTo(java.util.Arrays.copyOfRange(data, (int) r[0], (int) (r[0] + r[1])));
        }
        for (int i = 0; i < 10; i++) {
            int from = random.nextInt(data.length);
            int length = random.nextInt(data.length - from + 1);
            assertThat(read(path, file, from, length)).as("range %d+%d", from, length)
                    .isEqualTo(java.util.Arrays.copyOfRange(data, from, from + length));
        }
    }

    @Test
    void onePodDownWritesSucceedAndReadsAreExact() throws Exception {
        cluster.stopPod(7);
        for (int size : new int[] {1, 256 * 1024, MIB, 3 * MIB + 1}) {
            byte[] data = randomBytes(random, size);
            StoredFile file = write(path, data);
            assertThat(file.missingShards()).as("size %d", size).containsExactly(7);
            assertThat(read(path, file)).as("size %d", size).isEqualTo(data);
        }
    }

    @Test
    void fourPodsDownReadsAreExact() throws Exception {
        List<byte[]> data = List.of(randomBytes(random, 100), randomBytes(random, 300 * 1024),
                randomBytes(random, 2 * MIB + 12_345));
        List<StoredFile> files = new java.util.ArrayList<>();
        for (byte[] d : data) {
            files.add(write(path, d));
        }
        for (int i : new int[] {0, 5, 15, 18}) {
            cluster.stopPod(i);
        }
        for (int f = 0; f < files.size(); f++) {
            assertThat(read(path, files.get(f))).isEqualTo(data.get(f));
            assertThat(read(path, files.get(f), 1, data.get(f).length - 2))
                    .isEqualTo(java.util.Arrays.copyOfRange(data.get(f), 1, data.get(f).length - 1));
        }
    }

    @Test
    void fivePodsDownFailReadsWithAClearError() throws Exception {
        byte[] data = randomBytes(random, 2 * MIB);
        StoredFile file = write(path, data);
        // The stash copies would rescue a small file; this one is large, so nothing can.
        for (int i = 0; i < 5; i++) {
            cluster.stopPod(i);
        }
        assertThatThrownBy(() -> read(path, file))
                .isInstanceOfSatisfying(ShardvaultException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.UNAVAILABLE))
                .hasMessageContaining("only 15 of the 16 chunks");
        assertThatThrownBy(() -> write(path, randomBytes(random, 1000)))
                .isInstanceOfSatisfying(ShardvaultException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.UNAVAILABLE))
                .hasMessageContaining("fewer than 19 of 20 pods acknowledged");
    }

    @Test
    void stashDownSmallWritesGoDurable() throws Exception {
        DataPath own = cluster.newDataPath(MiniCluster.Options.defaults().dataPath());
        cluster.stopStash(0);
        cluster.stopStash(1);
        try {
            for (int size : new int[] {1, 16 * 1024, MIB}) {
                byte[] data = randomBytes(random, size);
                StoredFile file = write(own, data);
                assertThat(file.stashed()).as("size %d", size).isFalse();
                assertThat(file.missingShards()).isEmpty();
                assertThat(read(own, file)).isEqualTo(data);
            }
        } finally {
            cluster.restartStash(0);
            cluster.restartStash(1);
        }
    }

    @Test
    void aCorruptChunkIsRebuiltFromTheOthers() throws Exception {
        byte[] data = randomBytes(random, 5 * MIB);
        StoredFile file = write(path, data);
        corruptShard(2, file.fileId());
        assertThat(read(path, file)).isEqualTo(data);
        assertThat(cluster.metrics().counter("shardvault.data.read.decodes").count()).isPositive();
    }

    /**
     * Too few chunks is UNAVAILABLE (503 at the S3 edge: retry later) while a chunk missing may come back with
     * its pod, and CORRUPT (500) once too many are damaged for any retry to help (issue #23's soak).
     */
    @Test
    void aReadShortOfChunksIsUnavailableWhileAPodMayReturnAndCorruptWhenTooManyAreDamaged() throws Exception {
        byte[] data = randomBytes(random, 2 * MIB);
        StoredFile file = write(path, data);
        for (int pod = 0; pod < 4; pod++) {
            corruptShard(pod, file.fileId());
        }
        cluster.stopPod(4);
        assertThatThrownBy(() -> read(path, file))
                .isInstanceOfSatisfying(ShardvaultException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.UNAVAILABLE))
                .hasMessageContaining("only 15 of the 16 chunks");
        cluster.restartPod(4);
        assertThat(read(path, file)).isEqualTo(data);

        corruptShard(4, file.fileId());
        assertThatThrownBy(() -> read(path, file))
                .isInstanceOfSatisfying(ShardvaultException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CORRUPT))
                .hasMessageContaining("only 15 of the 16 chunks");
    }

    /**
     * A file whose shards are deleted while it is read (an overwrite in an unversioned bucket released it, and
     * the reaper was quicker than a GET of the old version: seed 7's chaos run) answers NOT_FOUND from every
     * pod. A retry of the GET reads the key's new version, so that is UNAVAILABLE (503), not CORRUPT (500).
     */
    @Test
    void aReadOfAFileDeletedUnderItIsUnavailable() throws Exception {
        StoredFile file = write(path, randomBytes(random, 2 * MIB));
        path.delete(file).get(60, TimeUnit.SECONDS);
        assertThatThrownBy(() -> read(path, file))
                .isInstanceOfSatisfying(ShardvaultException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.UNAVAILABLE))
                .hasMessageContaining("only 0 of the 16 chunks");
    }

    /** Flips a bit near the end of pod {@code pod}'s shard file of {@code fileId}: its last chunk fails its CRC. */
    private static void corruptShard(int pod, long fileId) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(shardFile(pod, fileId).toFile(), "rw")) {
            long at = raf.length() - 100;
            raf.seek(at);
            int b = raf.read();
            raf.seek(at);
            raf.write(b ^ 0x10);
        }
    }

    @Test
    void deleteRemovesEveryShardAndIsIdempotent() throws Exception {
        StoredFile file = write(path, randomBytes(random, 10_000));
        assertThat(shardFile(4, file.fileId())).exists();
        path.delete(file).get();
        path.delete(file).get();
        assertThat(shardFile(4, file.fileId())).doesNotExist();
        assertThatThrownBy(() -> read(path, file)).isInstanceOf(ShardvaultException.class);
    }

    /**
     * Stripe buffers are pooled: one handed to a new stripe while a chunk RPC of an earlier one still
     * read it would send another upload's bytes under this one's id. Four writers upload distinct
     * bodies at once; every byte reads back, also when reads must decode (pooled decode buffers).
     */
    @Test
    void concurrentUploadsOfDistinctBodiesReadBackByteForByte() throws Exception {
        DataPath own = cluster.newDataPath(MiniCluster.Options.defaults().dataPath());
        int[] sizes = {100 * 1024, MIB - 1000, MIB, 3 * MIB + 777, 1};
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<List<Map.Entry<StoredFile, byte[]>>>> writers = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                Random mine = new Random(seed + 31 * w);
                writers.add(threads.submit(() -> {
                    List<Map.Entry<StoredFile, byte[]>> done = new ArrayList<>();
                    for (int size : sizes) {
                        byte[] data = randomBytes(mine, size);
                        done.add(Map.entry(write(own, data), data));
                    }
                    return done;
                }));
            }
            List<Map.Entry<StoredFile, byte[]>> written = new ArrayList<>();
            for (Future<List<Map.Entry<StoredFile, byte[]>>> f : writers) {
                written.addAll(f.get(DataPathTesting.WAIT.toSeconds(), TimeUnit.SECONDS));
            }
            readAllConcurrently(threads, own, written);
            cluster.stopPod(0);
            cluster.stopPod(9);
            readAllConcurrently(threads, own, written);
        } finally {
            threads.shutdownNow();
        }
    }

    private static void readAllConcurrently(ExecutorService threads, DataPath path,
                                            List<Map.Entry<StoredFile, byte[]>> written) throws Exception {
        List<Future<?>> reads = new ArrayList<>();
        for (Map.Entry<StoredFile, byte[]> e : written) {
            reads.add(threads.submit(() -> {
                assertThat(read(path, e.getKey())).as("file %d", e.getKey().fileId()).isEqualTo(e.getValue());
                return null;
            }));
        }
        for (Future<?> f : reads) {
            f.get(DataPathTesting.WAIT.toSeconds(), TimeUnit.SECONDS);
        }
    }

    /** A reused stripe buffer holds the last stripe's bytes: the padding after a short stripe must still be zeros. */
    @Test
    void theLastChunksPaddingIsZeroOnThePodAfterABufferWasReused() throws Exception {
        DataPath own = cluster.newDataPath(MiniCluster.Options.defaults().dataPath());
        int size = MIB - 1000;
        try (RpcClient rpc = RpcClient.create(cluster.transport(), RpcClientConfig.defaults())) {
            PodClient pods = new PodClient(rpc);
            for (int round = 0; round < 3; round++) {
                // Fills a stripe buffer of the same size class with random bytes, then frees it.
                write(own, randomBytes(random, MIB));
                StoredFile file = write(own, randomBytes(random, size));
                VaultLayout layout = file.layout();
                int chunk = layout.chunkLength(size, 0);
                int last = layout.k() - 1;
                int padding = layout.k() * chunk - size;
                assertThat(padding).isPositive();
                ByteBuf stored = pods.read(cluster.podAddress(last),
                        new ShardId(file.vaultId(), file.fileId(), last), 0, chunk).get(60, TimeUnit.SECONDS);
                try {
                    byte[] tail = new byte[padding];
                    stored.getBytes(stored.readerIndex() + chunk - padding, tail);
                    assertThat(tail).as("round %d", round).containsOnly((byte) 0);
                } finally {
                    stored.release();
                }
            }
        }
    }

    private static Path shardFile(int pod, long fileId) throws IOException {
        String name = String.format("%016x.shard", fileId);
        try (Stream<Path> files = Files.walk(dir.resolve("pod-" + pod))) {
            return files.filter(p -> p.getFileName().toString().equals(name)).findFirst()
                    .orElse(dir.resolve("pod-" + pod).resolve(name));
        }
    }
}
