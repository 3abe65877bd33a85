package io.shardvault.it.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.common.testing.ChildJvm;
import io.shardvault.coordinator.CoordinatorMain;
import io.shardvault.coordinator.testing.MiniCluster;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * Issue #7: "a 2 GiB upload through a coordinator with a 256 MiB heap succeeds". The pods and stash servers
 * run in this JVM (a {@link MiniCluster}); the coordinator runs as a child JVM with {@code -Xmx256m} (and so
 * at most 256 MiB of direct memory), started from {@code CoordinatorMain} with a generated config file. The
 * body is a seeded pseudo-random stream generated on the fly, never held whole anywhere; the read back is
 * compared through a running SHA-256.
 *
 * <p>Takes minutes: runs only with {@code -Dshardvault.it.large=true}. Size and heap can be changed with
 * {@code -Dshardvault.it.large.bytes=N} and {@code -Dshardvault.it.large.heap=256m}.
 */
@Timeout(value = 30, unit = TimeUnit.MINUTES)
@EnabledIfSystemProperty(named = "shardvault.it.large", matches = "true")
class LargeUploadIT {
    private static final Logger LOG = LoggerFactory.getLogger(LargeUploadIT.class);
    private static final long SEED = Long.getLong("shardvault.it.large.seed", System.nanoTime());
    private static final long SIZE = Long.getLong("shardvault.it.large.bytes", 2L << 30);
    private static final String HEAP = System.getProperty("shardvault.it.large.heap", "256m");
    private static final String READY = "coordinator S3 endpoint ready on ";

    @TempDir
    Path dir;

    @Test
    void twoGibUploadThroughCoordinatorWithSmallHeapReadsBackExact() throws Exception {
        LOG.info("seed {}, {} bytes, coordinator heap {}", SEED, SIZE, HEAP);
        try (MiniCluster nodes = MiniCluster.start(dir.resolve("nodes"), MiniCluster.Options.defaults())) {
            Path config = writeConfig(S3Cluster.coordinatorSettings(nodes, dir.resolve("catalog"), 0));
            ChildJvm child = startCoordinator(config);
            try {
                URI endpoint = URI.create(child.awaitLine(READY, Duration.ofMinutes(3)));
                LOG.info("child coordinator (pid {}) ready on {}", child.pid(), endpoint);
                try (S3Client s3 = S3Cluster.syncClient(endpoint, S3Cluster.ACCESS_KEY, S3Cluster.SECRET_KEY,
                        Duration.ofMinutes(20))) {
                    s3.createBucket(b -> b.bucket("large"));
                    long t0 = System.nanoTime();
                    s3.putObject(b -> b.bucket("large").key("two-gib").contentLength(SIZE),
                            RequestBody.fromContentProvider(() -> new SeededStream(SEED, SIZE), SIZE,
                                    "application/octet-stream"));
                    long t1 = System.nanoTime();
                    String expected = HexFormat.of().formatHex(digest(new SeededStream(SEED, SIZE)));
                    long read;
                    String actual;
                    try (ResponseInputStream<GetObjectResponse> in =
                                 s3.getObject(b -> b.bucket("large").key("two-gib"))) {
                        assertThat(in.response().contentLength()).isEqualTo(SIZE);
                        CountingDigest d = new CountingDigest();
                        d.consume(in);
                        read = d.count;
                        actual = HexFormat.of().formatHex(d.sha.digest());
                    }
                    long t2 = System.nanoTime();
                    LOG.info("PUT {} bytes in {} s ({} MiB/s), GET in {} s ({} MiB/s)", SIZE,
                            (t1 - t0) / 1_000_000_000.0, mibPerSecond(SIZE, t1 - t0),
                            (t2 - t1) / 1_000_000_000.0, mibPerSecond(SIZE, t2 - t1));
                    assertThat(read).isEqualTo(SIZE);
                    assertThat(actual).as("SHA-256 of the object read back").isEqualTo(expected);
                    assertThat(child.isAlive()).as("the coordinator survived (no OutOfMemoryError)").isTrue();
                }
            } finally {
                child.close();
            }
            assertThat(child.output()).noneMatch(line -> line.contains("OutOfMemoryError"));
        }
    }

    private static long mibPerSecond(long bytes, long nanos) {
        return Math.round(bytes / 1048576.0 / (nanos / 1e9));
    }

    /** A HOCON file of {@code settings}: numbers bare, everything else quoted. */
    private Path writeConfig(Map<String, Object> settings) throws IOException {
        settings.put("coordinator.accessKey", S3Cluster.ACCESS_KEY);
        settings.put("coordinator.secretKey", S3Cluster.SECRET_KEY);
        settings.put("audit.file", dir.resolve("audit.json").toString());
        StringBuilder out = new StringBuilder("# Generated by LargeUploadIT\n");
        for (Map.Entry<String, Object> e : new TreeMap<>(settings).entrySet()) {
            Object v = e.getValue();
            out.append(e.getKey()).append(" = ").append(v instanceof Number ? v.toString()
                    : "\"" + v.toString().replace("\\", "\\\\").replace("\"", "\\\"") + "\"").append('\n');
        }
        Path file = dir.resolve("coordinator.conf");
        Files.writeString(file, out.toString(), StandardCharsets.UTF_8);
        return file;
    }

    private static ChildJvm startCoordinator(Path config) throws IOException {
        // An OutOfMemoryError must end the child at once, not leave it limping: the test then fails on it.
        return ChildJvm.builder(CoordinatorMain.class).name("coordinator")
                .jvmArgs("-Xmx" + HEAP, "-XX:+ExitOnOutOfMemoryError").args("--config", config.toString()).start();
    }

    private static byte[] digest(InputStream in) throws IOException, NoSuchAlgorithmException {
        CountingDigest d = new CountingDigest();
        d.consume(in);
        return d.sha.digest();
    }

    /** SHA-256 and a byte count over a stream. */
    private static final class CountingDigest {
        final MessageDigest sha;
        long count;

        CountingDigest() throws NoSuchAlgorithmException {
            sha = MessageDigest.getInstance("SHA-256");
        }

        void consume(InputStream in) throws IOException {
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) {
                sha.update(buf, 0, n);
                count += n;
            }
        }
    }

    /** {@code size} pseudo-random bytes from {@code seed}, generated 8 at a time as they are read. */
    static final class SeededStream extends InputStream {
        private final SplittableRandom random;
        private long remaining;
        private long word;
        private int wordBytes;

        SeededStream(long seed, long size) {
            this.random = new SplittableRandom(seed);
            this.remaining = size;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (remaining == 0) {
                return -1;
            }
            int n = (int) Math.min(len, remaining);
            for (int i = 0; i < n; i++) {
                if (wordBytes == 0) {
                    word = random.nextLong();
                    wordBytes = 8;
                }
                b[off + i] = (byte) word;
                word >>>= 8;
                wordBytes--;
            }
            remaining -= n;
            return n;
        }
    }
}
