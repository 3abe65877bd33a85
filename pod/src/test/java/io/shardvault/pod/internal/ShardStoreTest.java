package io.shardvault.pod.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.fs.CachedRead;
import io.shardvault.common.fs.DirectOpenOption;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

@Timeout(60)
class ShardStoreTest {
    private static final Logger LOG = LoggerFactory.getLogger(ShardStoreTest.class);
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
        for (int i = 0; i < 3; i++) {
            tomes.add(new Tome(i, Files.createDirectories(dir.resolve("t" + i)), DirectTomeIo.INSTANCE));
        }
        // Files kept open for reads, as a pod keeps them: every test here also checks that no stale one is read.
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

    private void write(ShardId id, long offset, byte[] data, boolean durable) throws IOException {
        store.write(id, offset, Crc32c.of(data), Unpooled.wrappedBuffer(data), durable);
    }

    private byte[] read(ShardId id, long offset, int length) throws IOException {
        return bytesOf(store.read(id, offset, length, ALLOC));
    }

    /** The buffer's bytes, the buffer released; null for null. */
    private static byte[] bytesOf(ByteBuf buf) {
        if (buf == null) {
            return null;
        }
        try {
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    @Test
    void chunksOfSeveralStripesAreAppendedAtTheirOffsetsAndReadBackInRanges() throws IOException {
        ShardId id = new ShardId(1, 42, 3);
        byte[] a = bytes(1000);
        byte[] b = bytes(1000);
        byte[] c = bytes(500);
        write(id, 1000, b, false); // stripes may arrive out of order
        write(id, 0, a, true);
        write(id, 2000, c, false);
        byte[] whole = new byte[2500];
        System.arraycopy(a, 0, whole, 0, 1000);
        System.arraycopy(b, 0, whole, 1000, 1000);
        System.arraycopy(c, 0, whole, 2000, 500);
        assertThat(read(id, 0, 2500)).isEqualTo(whole);
        assertThat(read(id, 900, 1200)).isEqualTo(java.util.Arrays.copyOfRange(whole, 900, 2100));
        assertThat(read(id, 2499, 1)).containsExactly(whole[2499]);
        assertThat(store.length(id)).contains(2500L);
        assertThatThrownBy(() -> read(id, 2000, 501)).isInstanceOf(ShardStoreException.class)
                .extracting(e -> ((ShardStoreException) e).code()).isEqualTo(ErrorCode.BAD_REQUEST);
    }

    @Test
    void wrongCrcIsRejectedAndNothingIsStored() {
        ShardId id = new ShardId(1, 7, 0);
        byte[] data = bytes(4096);
        assertThatThrownBy(() -> store.write(id, 0, Crc32c.of(data) ^ 1, Unpooled.wrappedBuffer(data), false))
                .isInstanceOf(ShardStoreException.class)
                .extracting(e -> ((ShardStoreException) e).code()).isEqualTo(ErrorCode.CHECKSUM_MISMATCH);
        assertThat(Files.exists(store.pathOf(id))).isFalse();
    }

    @Test
    void aRetriedChunkIsIdempotentAndAnOverlappingDifferentOneIsRejected() throws IOException {
        ShardId id = new ShardId(2, 9, 1);
        byte[] a = bytes(100);
        write(id, 0, a, false);
        long size = Files.size(store.pathOf(id));
        write(id, 0, a, false);
        assertThat(Files.size(store.pathOf(id))).isEqualTo(size);
        assertThatThrownBy(() -> write(id, 50, bytes(100), false)).isInstanceOf(ShardStoreException.class)
                .extracting(e -> ((ShardStoreException) e).code()).isEqualTo(ErrorCode.BAD_REQUEST);
    }

    @Test
    void aByteFlippedOnDiskIsReportedCorruptNeverAsData() throws IOException {
        ShardId id = new ShardId(1, 5, 2);
        byte[] a = bytes(8192);
        write(id, 0, a, true);
        Path file = store.pathOf(id);
        int at = ShardFile.FILE_HEADER_BYTES + ShardFile.RECORD_HEADER_BYTES + random.nextInt(a.length);
        flipByte(file, at);
        assertThatThrownBy(() -> read(id, 0, 10)).isInstanceOf(ShardStoreException.class)
                .extracting(e -> ((ShardStoreException) e).code()).isEqualTo(ErrorCode.CORRUPT);
        assertThat(store.check(id, 0, a.length, Crc32c.of(a))).isEqualTo(ShardStore.ChunkState.CORRUPT);
    }

    static void flipByte(Path file, long at) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            java.nio.ByteBuffer one = java.nio.ByteBuffer.allocate(1);
            ch.read(one, at);
            one.put(0, (byte) (one.get(0) ^ 0x10));
            one.rewind();
            ch.write(one, at);
        }
    }

    @Test
    void aTornAppendIsCutOffByTheNextWrite() throws IOException {
        ShardId id = new ShardId(1, 11, 0);
        byte[] a = bytes(300);
        write(id, 0, a, true);
        Path file = store.pathOf(id);
        long good = Files.size(file);
        Files.write(file, new byte[] {0x53, 0x56, 0x43, 0x4B, 0, 0, 0}, StandardOpenOption.APPEND); // half a record header
        assertThat(read(id, 0, 300)).isEqualTo(a);
        byte[] b = bytes(200);
        write(id, 300, b, true);
        assertThat(Files.size(file)).isEqualTo(good + ShardFile.RECORD_HEADER_BYTES + 200);
        assertThat(read(id, 250, 100)).isEqualTo(concat(java.util.Arrays.copyOfRange(a, 250, 300),
                java.util.Arrays.copyOfRange(b, 0, 50)));
    }

    private static byte[] concat(byte[] x, byte[] y) {
        byte[] out = new byte[x.length + y.length];
        System.arraycopy(x, 0, out, 0, x.length);
        System.arraycopy(y, 0, out, x.length, y.length);
        return out;
    }

    @Test
    void restoreRewritesACorruptChunkAndKeepsTheGoodOnes() throws IOException {
        ShardId id = new ShardId(3, 77, 4);
        byte[] a = bytes(1000);
        byte[] b = bytes(1000);
        write(id, 0, a, true);
        write(id, 1000, b, true);
        flipByte(store.pathOf(id), ShardFile.FILE_HEADER_BYTES + ShardFile.RECORD_HEADER_BYTES + 10);
        assertThat(store.check(id, 0, 1000, Crc32c.of(a))).isEqualTo(ShardStore.ChunkState.CORRUPT);
        store.restore(id, 0, Crc32c.of(a), Unpooled.wrappedBuffer(a));
        assertThat(store.check(id, 0, 1000, Crc32c.of(a))).isEqualTo(ShardStore.ChunkState.PRESENT);
        assertThat(read(id, 0, 2000)).isEqualTo(concat(a, b));
        assertThat(store.check(new ShardId(3, 78, 4), 0, 1, 0)).isEqualTo(ShardStore.ChunkState.MISSING);
    }

    @Test
    void deleteIsIdempotentAndReadOfAMissingShardIsNotFound() throws IOException {
        ShardId id = new ShardId(1, 1, 1);
        write(id, 0, bytes(10), false);
        assertThat(store.delete(id)).isTrue();
        assertThat(store.delete(id)).isFalse();
        assertThatThrownBy(() -> read(id, 0, 1)).isInstanceOf(ShardStoreException.class)
                .extracting(e -> ((ShardStoreException) e).code()).isEqualTo(ErrorCode.NOT_FOUND);
    }

    @Test
    void listingPagesThroughEveryShardInKeyOrderAcrossTomes() throws IOException {
        List<ShardId> expected = new ArrayList<>();
        for (int vault = 0; vault < 2; vault++) {
            for (int shard = 0; shard < 3; shard++) {
                for (int f = 0; f < 40; f++) {
                    ShardId id = new ShardId(vault, random.nextInt(1 << 20) * 1000L + f, shard);
                    write(id, 0, bytes(8), false);
                    expected.add(id);
                }
            }
        }
        expected.sort(ShardId.KEY_ORDER);
        List<ShardId> seen = new ArrayList<>();
        Optional<ShardId> after = Optional.empty();
        for (int pages = 0; pages < 100; pages++) {
            List<ShardId> page = store.list(after, 17);
            seen.addAll(page);
            if (page.size() < 17) {
                break;
            }
            after = Optional.of(page.get(page.size() - 1));
        }
        assertThat(seen).containsExactlyElementsOf(expected);
        assertThat(tomes).allSatisfy(t -> assertThat(Files.exists(t.directory().resolve("v0"))).isTrue());
    }

    @Test
    void aNewShardIsOneWriteCallHeaderRecordAndDataAndAnAppendIsOneMore() throws IOException {
        FaultTomeIo io = new FaultTomeIo();
        Tome tome = new Tome(0, dir.resolve("counted"), io);
        tomes.add(tome);
        Files.createDirectories(tome.directory());
        ShardStore counted = new ShardStore(List.of(tome));
        ShardId id = new ShardId(4, 0x2abcL, 5);
        byte[] a = bytes(5000);
        byte[] b = bytes(3000);
        // As chunks arrive from the network: a composite of a heap and a direct component.
        ByteBuf direct = Unpooled.directBuffer(2000).writeBytes(a, 3000, 2000);
        ByteBuf composite = Unpooled.wrappedBuffer(Unpooled.wrappedBuffer(a, 0, 3000), direct);
        long before = io.writeCalls();
        ShardStore.WriteOutcome first = counted.write(id, 0, Crc32c.of(a), composite, false);
        composite.release();
        assertThat(io.writeCalls() - before).as("file header, record header and data in one gathering write")
                .isEqualTo(1);
        assertThat(first.newFile()).isTrue();
        assertThat(first.bytesWritten())
                .isEqualTo(ShardFile.FILE_HEADER_BYTES + ShardFile.RECORD_HEADER_BYTES + a.length);
        counted.write(id, a.length, Crc32c.of(b), Unpooled.wrappedBuffer(b), false);
        assertThat(io.writeCalls() - before).as("an append's record header and data in one write").isEqualTo(2);
        ByteBuf back = counted.read(id, 0, a.length + b.length, ALLOC);
        try {
            assertThat(ByteBufUtil.getBytes(back)).isEqualTo(concat(a, b));
        } finally {
            back.release();
        }
    }

    @Test
    void shardPathsFollowTheDocumentedLayout() {
        ShardId id = new ShardId(17, 0x0123_4567_89ab_cdefL, 9);
        Path expected = store.tomeFor(id).directory().resolve("v17").resolve("s9").resolve("bc")
                .resolve("0123456789abcdef.shard");
        assertThat(store.pathOf(id)).isEqualTo(expected);
        assertThat(store.pathOf(new ShardId(0, 1, 0)).getFileName().toString()).isEqualTo("0000000000000001.shard");
        assertThat(store.pathOf(new ShardId(0, 1, 0)).getParent().getFileName().toString()).isEqualTo("00");
    }

    /**
     * A crash may keep any prefix of the one gathered write of a new shard (or of an append): cut
     * the file at every byte of it. A cut inside the header is a bad header (CORRUPT: recovery
     * restores the shard from the stash); a cut after it is "no record", and the retried write
     * goes in cleanly. An append cut anywhere leaves every earlier chunk readable.
     */
    @Test
    void everyPrefixOfAGatheredWriteReadsAsNoRecordAndTheRetrySucceeds() throws IOException {
        byte[] a = bytes(97);
        byte[] b = bytes(61);
        ShardId probe = new ShardId(5, 1, 0);
        write(probe, 0, a, true);
        byte[] created = Files.readAllBytes(store.pathOf(probe));
        write(probe, a.length, b, true);
        byte[] appended = Files.readAllBytes(store.pathOf(probe));
        assertThat(created).hasSize(ShardFile.FILE_HEADER_BYTES + ShardFile.RECORD_HEADER_BYTES + a.length);

        for (int cut = 0; cut < created.length; cut++) {
            ShardId id = new ShardId(5, 1000 + cut, 0);
            Path file = store.pathOf(id);
            Files.createDirectories(file.getParent());
            Files.write(file, java.util.Arrays.copyOf(created, cut));
            if (cut < ShardFile.FILE_HEADER_BYTES) {
                assertThat(store.check(id, 0, a.length, Crc32c.of(a))).as("cut at %d", cut)
                        .isEqualTo(ShardStore.ChunkState.CORRUPT);
                continue;
            }
            // The header names the probe shard; rewrite it for this id the way a create would.
            Files.delete(file);
            write(id, 0, a, false);
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ch.truncate(cut);
            }
            assertThat(store.check(id, 0, a.length, Crc32c.of(a))).as("cut at %d", cut)
                    .isEqualTo(ShardStore.ChunkState.MISSING);
            assertThat(store.length(id)).as("cut at %d", cut).contains(0L);
            write(id, 0, a, false);
            assertThat(read(id, 0, a.length)).as("cut at %d", cut).isEqualTo(a);
        }
        for (int cut = created.length; cut < appended.length; cut++) {
            Path file = store.pathOf(probe);
            Files.write(file, java.util.Arrays.copyOf(appended, cut));
            assertThat(read(probe, 0, a.length)).as("cut at %d", cut).isEqualTo(a);
            assertThat(store.check(probe, a.length, b.length, Crc32c.of(b))).as("cut at %d", cut)
                    .isEqualTo(ShardStore.ChunkState.MISSING);
            write(probe, a.length, b, false);
            assertThat(read(probe, 0, a.length + b.length)).as("cut at %d", cut).isEqualTo(concat(a, b));
        }
    }

    // Reads through the store's open files (OpenShardFiles): every way a shard file changes or goes leaves no
    // entry a later read could use, and an entry dropped under a reader is closed only after it.

    @Test
    void aReadAfterAnAppendSeesTheNewStripe() throws IOException {
        ShardId id = new ShardId(1, 10, 3);
        byte[] a = bytes(1000);
        byte[] b = bytes(700);
        write(id, 0, a, false);
        assertThat(read(id, 0, a.length)).isEqualTo(a);
        write(id, a.length, b, false);
        assertThat(read(id, 0, a.length + b.length)).isEqualTo(concat(a, b));
        assertThat(store.openFiles()).isEqualTo(1);
    }

    @Test
    void aReadAfterADeleteIsNotFoundAndAfterANewFileOfTheSameIdSeesItsBytes() throws IOException {
        ShardId id = new ShardId(1, 11, 3);
        byte[] a = bytes(1000);
        write(id, 0, a, false);
        assertThat(read(id, 0, a.length)).isEqualTo(a);
        assertThat(store.delete(id)).isTrue();
        assertReadFails(id, 1, ErrorCode.NOT_FOUND);
        byte[] b = bytes(400);
        write(id, 0, b, false);
        assertThat(read(id, 0, b.length)).isEqualTo(b);
        assertReadFails(id, a.length, ErrorCode.BAD_REQUEST);
    }

    /** A restore (recovery, or a repair rewriting the file) renames a new file over the old one. */
    @Test
    void aReadAfterARestoreSeesTheNewBytes() throws IOException {
        ShardId id = new ShardId(1, 12, 3);
        byte[] a = bytes(1000);
        byte[] b = bytes(1000);
        write(id, 0, a, false);
        write(id, a.length, b, false);
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
        write(id, 0, a, false);
        assertThat(read(id, 0, a.length)).isEqualTo(a);
        store.tomeFor(id).markFailed("a test", Instant.EPOCH);
        assertThat(read(id, 0, a.length)).isEqualTo(a);
        Files.delete(store.pathOf(id));
        assertReadFails(id, 1, ErrorCode.NOT_FOUND);
    }

    @Test
    void atMostTheCapacityStaysOpenAndNoneAfterClose() throws IOException {
        List<ShardId> ids = new ArrayList<>();
        for (int f = 0; f < 10; f++) {
            ShardId id = new ShardId(2, f, 0);
            byte[] data = bytes(100 + f);
            write(id, 0, data, false);
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
            write(id, 0, versions.get(0), false);
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
                    write(id, 0, versions.get(changes.nextInt(versions.size())), false);
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
        write(id, 0, a, false);
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

    // Reads at once (ShardStore.readIfCached, a pod's READ on its event loop): only through a file open in the
    // cache, only bytes the page cache holds, and never a byte that fails its CRC.

    private byte[] readIfCached(ShardId id, long offset, int length) throws IOException {
        return bytesOf(store.readIfCached(id, offset, length, ALLOC));
    }

    @Test
    void aReadAtOnceServesOnlyAFileOpenInTheCacheAndSeesEveryAppend() throws IOException {
        assumeTrue(CachedRead.unavailableBecause() == null, CachedRead.unavailableBecause());
        ShardId id = new ShardId(1, 20, 3);
        byte[] a = bytes(1000);
        byte[] b = bytes(700);
        write(id, 0, a, false);
        store.close();
        store = new ShardStore(tomes, 4);
        assertThat(readIfCached(id, 0, a.length)).as("no open file: an open and a scan may wait").isNull();
        assertThat(read(id, 0, a.length)).isEqualTo(a);
        assertThat(readIfCached(id, 0, a.length)).isEqualTo(a);
        assertThat(readIfCached(id, 100, 50)).isEqualTo(Arrays.copyOfRange(a, 100, 150));
        write(id, a.length, b, false);
        byte[] both = readIfCached(id, 0, a.length + b.length);
        if (both != null) {
            assertThat(both).isEqualTo(concat(a, b));
        }
        assertThat(read(id, 0, a.length + b.length)).isEqualTo(concat(a, b));
        assertThat(readIfCached(id, 0, a.length + b.length)).isEqualTo(concat(a, b));
    }

    /** Rewritten with O_DIRECT, the shard file's bytes are only on the disk: reading them at once would wait. */
    @Test
    void aReadAtOnceOfBytesOnlyTheDiskHoldsIsLeftToTheOrdinaryRead() throws IOException {
        assumeTrue(CachedRead.unavailableBecause() == null, CachedRead.unavailableBecause());
        ShardId id = new ShardId(1, 21, 3);
        // Header and record header included, the file is two 4 KiB blocks, as O_DIRECT writes them.
        byte[] a = bytes(2 * 4096 - ShardFile.FILE_HEADER_BYTES - ShardFile.RECORD_HEADER_BYTES);
        write(id, 0, a, true);
        assertThat(read(id, 0, a.length)).isEqualTo(a);
        Path file = store.pathOf(id);
        assertThat(Files.size(file)).isEqualTo(2 * 4096);
        ByteBuffer block = ByteBuffer.allocateDirect(3 * 4096).alignedSlice(4096);
        block.put(Files.readAllBytes(file)).flip();
        try (FileChannel direct = FileChannel.open(file, StandardOpenOption.WRITE, DirectOpenOption.require())) {
            direct.write(block, 0);
            direct.force(true);
        } catch (UnsupportedOperationException | IOException e) {
            assumeTrue(false, "O_DIRECT on " + dir + ": " + e);
        }
        assertThat(readIfCached(id, 0, a.length)).isNull();
        assertThat(read(id, 0, a.length)).isEqualTo(a);
        assertThat(readIfCached(id, 0, a.length)).as("in memory again after the ordinary read").isEqualTo(a);
    }

    @Test
    void aReadAtOnceNeverReturnsAByteFailingItsCrcNorReadsAFailedTome() throws IOException {
        assumeTrue(CachedRead.unavailableBecause() == null, CachedRead.unavailableBecause());
        ShardId id = new ShardId(1, 22, 3);
        byte[] a = bytes(1000);
        write(id, 0, a, false);
        assertThat(read(id, 0, a.length)).isEqualTo(a);
        flipByte(store.pathOf(id), ShardFile.FILE_HEADER_BYTES + ShardFile.RECORD_HEADER_BYTES + 10);
        assertThatThrownBy(() -> readIfCached(id, 0, a.length)).isInstanceOf(ShardStoreException.class)
                .extracting(ShardStoreTest::codeOf).isEqualTo(ErrorCode.CORRUPT);

        ShardId other = new ShardId(1, 23, 3);
        write(other, 0, a, false);
        assertThat(read(other, 0, a.length)).isEqualTo(a);
        store.tomeFor(other).markFailed("a test", Instant.EPOCH);
        assertThat(readIfCached(other, 0, a.length)).as("a failed tome's files are read as they are now").isNull();
    }

    private void assertReadFails(ShardId id, int length, ErrorCode code) {
        assertThatThrownBy(() -> read(id, 0, length)).isInstanceOf(ShardStoreException.class)
                .extracting(ShardStoreTest::codeOf).isEqualTo(code);
    }

    private static ErrorCode codeOf(Throwable e) {
        return ((ShardStoreException) e).code();
    }

}
