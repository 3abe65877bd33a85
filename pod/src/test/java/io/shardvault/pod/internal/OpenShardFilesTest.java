package io.shardvault.pod.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The shard store's open files ({@link OpenShardFiles}): every way a shard file changes or goes
 * leaves no entry a later read could use, and an entry dropped under a reader is closed only
 * after it.
 */
@Timeout(120)
class OpenShardFilesTest {
    private static final Logger LOG = LoggerFactory.getLogger(OpenShardFilesTest.class);
    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;

    @TempDir
    Path dir;
    private final List<Tome> tomes = new ArrayList<>();
    private ShardStore store;
    private Random random;

    @BeforeEach
    void setUp() throws IOException {
        long seed = System.nanoTime();
        LOG.info("seed={}", seed);
        random = new Random(seed);
        for (int i = 0; i < 2; i++) {
            tomes.add(new Tome(i, Files.createDirectories(dir.resolve("t" + i)), DirectTomeIo.INSTANCE));
        }
        store = new ShardStore(tomes, 4);
    }

    @AfterEach
    void tearDown() {
        store.close();
        tomes.forEach(Tome::close);
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private void write(ShardId id, long offset, byte[] data) throws IOException {
        store.write(id, offset, Crc32c.of(data), Unpooled.wrappedBuffer(data), false);
    }

    private byte[] read(ShardId id, long offset, int length) throws IOException {
        ByteBuf buf = store.read(id, offset, length, ALLOC);
        try {
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    private static ErrorCode codeOf(Throwable e) {
        return ((ShardStoreException) e).code();
    }

    @Test
    void aReadAfterAnAppendSeesTheNewStripe() throws IOException {
        ShardId id = new ShardId(1, 10, 3);
        byte[] a = bytes(1000);
        byte[] b = bytes(700);
        write(id, 0, a);
        assertThat(read(id, 0, a.length)).isEqualTo(a);
        write(id, a.length, b);
        assertThat(read(id, 0, a.length + b.length)).isEqualTo(concat(a, b));
        assertThat(store.openFiles()).isEqualTo(1);
    }

    @Test
    void aReadAfterADeleteIsNotFoundAndAfterANewFileOfTheSameIdSeesItsBytes() throws IOException {
        ShardId id = new ShardId(1, 11, 3);
        byte[] a = bytes(1000);
        write(id, 0, a);
        assertThat(read(id, 0, a.length)).isEqualTo(a);
        assertThat(store.delete(id)).isTrue();
        assertThatThrownBy(() -> read(id, 0, 1)).isInstanceOf(ShardStoreException.class)
                .extracting(OpenShardFilesTest::codeOf).isEqualTo(ErrorCode.NOT_FOUND);
        byte[] b = bytes(400);
        write(id, 0, b);
        assertThat(read(id, 0, b.length)).isEqualTo(b);
        assertThatThrownBy(() -> read(id, 0, a.length)).isInstanceOf(ShardStoreException.class)
                .extracting(OpenShardFilesTest::codeOf).isEqualTo(ErrorCode.BAD_REQUEST);
    }

    /** A restore (recovery, or a repair rewriting the file) renames a new file over the old one. */
    @Test
    void aReadAfterARestoreSeesTheNewBytes() throws IOException {
        ShardId id = new ShardId(1, 12, 3);
        byte[] a = bytes(1000);
        byte[] b = bytes(1000);
        write(id, 0, a);
        write(id, a.length, b);
        assertThat(read(id, 0, 2000)).isEqualTo(concat(a, b));
        byte[] a2 = bytes(1000);
        store.restore(id, 0, Crc32c.of(a2), Unpooled.wrappedBuffer(a2));
        assertThat(read(id, 0, 2000)).isEqualTo(concat(a2, b));
    }

    /** A failed tome's files are read as they are now: an operator may be taking them away. */
    @Test
    void aFailedTomesShardsAreReadFromTheirFilesAsTheyAreNow() throws IOException {
        ShardId id = new ShardId(1, 13, 3);
        byte[] a = bytes(1000);
        write(id, 0, a);
        assertThat(read(id, 0, a.length)).isEqualTo(a);
        store.tomeFor(id).markFailed("a test", Instant.EPOCH);
        assertThat(read(id, 0, a.length)).isEqualTo(a);
        Files.delete(store.pathOf(id));
        assertThatThrownBy(() -> read(id, 0, 1)).isInstanceOf(ShardStoreException.class)
                .extracting(OpenShardFilesTest::codeOf).isEqualTo(ErrorCode.NOT_FOUND);
    }

    @Test
    void atMostTheCapacityStaysOpenAndNoneAfterClose() throws IOException {
        List<ShardId> ids = new ArrayList<>();
        for (int f = 0; f < 10; f++) {
            ShardId id = new ShardId(2, f, 0);
            byte[] data = bytes(100 + f);
            write(id, 0, data);
            assertThat(read(id, 0, data.length)).isEqualTo(data);
            ids.add(id);
            assertThat(store.openFiles()).isLessThanOrEqualTo(4);
        }
        assertThat(store.openFiles()).isEqualTo(4);
        store.close();
        assertThat(store.openFiles()).isZero();
        assertThat(read(ids.get(0), 0, 100)).hasSize(100);
        assertThat(store.openFiles()).as("a closed store reads uncached").isZero();
    }

    /**
     * Readers of a few shards against a thread that deletes and rewrites them, with more shards than
     * the cache holds, so entries are also evicted under readers: every read returns the shard's bytes
     * of one of its versions, or NOT_FOUND, never an error from a handle closed under it.
     */
    @Test
    void readersRacingDeletesRewritesAndEvictionsNeverUseAClosedFile() throws Exception {
        int shards = 8;
        int length = 4096;
        List<ShardId> ids = new ArrayList<>();
        List<byte[]> versions = new ArrayList<>();
        for (int v = 0; v < 3; v++) {
            versions.add(bytes(length));
        }
        for (int f = 0; f < shards; f++) {
            ShardId id = new ShardId(3, f, 1);
            ids.add(id);
            write(id, 0, versions.get(0));
        }
        AtomicBoolean stop = new AtomicBoolean();
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        AtomicInteger reads = new AtomicInteger();
        AtomicInteger notFound = new AtomicInteger();
        int readers = 4;
        CountDownLatch done = new CountDownLatch(readers + 1);
        for (int r = 0; r < readers; r++) {
            Random local = new Random(random.nextLong());
            Thread t = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        ShardId id = ids.get(local.nextInt(shards));
                        try {
                            byte[] got = read(id, 0, length);
                            if (versions.stream().noneMatch(v -> Arrays.equals(v, got))) {
                                throw new AssertionError("read of " + id + " returned bytes of no version");
                            }
                            reads.incrementAndGet();
                        } catch (ShardStoreException e) {
                            if (e.code() != ErrorCode.NOT_FOUND) {
                                throw e;
                            }
                            notFound.incrementAndGet();
                        }
                    }
                } catch (Throwable e) {
                    errors.add(e);
                    stop.set(true);
                } finally {
                    done.countDown();
                }
            }, "reader-" + r);
            t.setDaemon(true);
            t.start();
        }
        Random changes = new Random(random.nextLong());
        Thread changer = new Thread(() -> {
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                for (int i = 0; i < 3000 && !stop.get() && System.nanoTime() < deadline; i++) {
                    ShardId id = ids.get(changes.nextInt(shards));
                    store.delete(id);
                    write(id, 0, versions.get(changes.nextInt(versions.size())));
                }
            } catch (Throwable e) {
                errors.add(e);
            } finally {
                stop.set(true);
                done.countDown();
            }
        }, "changer");
        changer.setDaemon(true);
        changer.start();
        assertThat(done.await(60, TimeUnit.SECONDS)).as("the threads stopped").isTrue();
        LOG.info("{} reads, {} NOT_FOUND", reads.get(), notFound.get());
        assertThat(errors).isEmpty();
        assertThat(reads.get()).isPositive();
    }

    @Test
    void aHandleIsClosedByItsLastReleaseOnly() throws IOException {
        ShardId id = new ShardId(4, 1, 2);
        byte[] a = bytes(100);
        write(id, 0, a);
        OpenShardFiles files = new OpenShardFiles(1);
        Path path = store.pathOf(id);
        TomeFile file = store.tomeFor(id).io().open(path, TomeIo.OpenMode.READ);
        OpenShardFiles.Handle h = files.put(id, file, path, ShardFile.Layout.empty(id), true);
        assertThat(h.references()).isEqualTo(2);
        files.invalidate(id);
        assertThat(h.references()).isEqualTo(1);
        assertThat(file.size()).as("still open for its reader").isPositive();
        h.release();
        assertThatThrownBy(file::size).isInstanceOf(java.nio.channels.ClosedChannelException.class);
        assertThatThrownBy(h::release).isInstanceOf(IllegalStateException.class);
    }

    private static byte[] concat(byte[] x, byte[] y) {
        byte[] out = new byte[x.length + y.length];
        System.arraycopy(x, 0, out, 0, x.length);
        System.arraycopy(y, 0, out, x.length, y.length);
        return out;
    }
}
