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
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    void setUp() {
        long seed = System.nanoTime();
        LOG.info("seed={}", seed);
        random = new Random(seed);
        for (int i = 0; i < 3; i++) {
            tomes.add(new Tome(i, dir.resolve("t" + i), DirectTomeIo.INSTANCE));
        }
        tomes.forEach(t -> {
            try {
                Files.createDirectories(t.directory());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        store = new ShardStore(tomes);
    }

    @AfterEach
    void tearDown() {
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
        ByteBuf buf = store.read(id, offset, length, ALLOC);
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
}
