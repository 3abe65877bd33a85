package io.shardvault.common.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CachedReadTest {
    private static final boolean REQUIRED = "true".equalsIgnoreCase(System.getenv("SHARDVAULT_REQUIRE_NATIVE"));

    @Test
    void loadsWhenRequired() {
        String why = CachedRead.unavailableBecause();
        if (REQUIRED) {
            assertThat(why).as("cached reads with SHARDVAULT_REQUIRE_NATIVE=true").isNull();
        }
    }

    @Test
    void readsWhatThePageCacheHolds(@TempDir Path dir) throws IOException {
        assumeTrue(CachedRead.unavailableBecause() == null, CachedRead.unavailableBecause());
        byte[] bytes = new byte[3 * 4096 + 100];
        new Random(7).nextBytes(bytes);
        Path file = dir.resolve("cached");
        Files.write(file, bytes);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer dst = ByteBuffer.allocateDirect(bytes.length - 50);
            dst.position(10);
            assertThat(CachedRead.read(channel, dst, 60)).isEqualTo(bytes.length - 60);
            assertThat(dst.position()).isEqualTo(bytes.length - 50);
            byte[] read = new byte[bytes.length - 60];
            dst.position(10);
            dst.get(read);
            assertThat(read).isEqualTo(Arrays.copyOfRange(bytes, 60, bytes.length));
        }
    }

    /** Written with O_DIRECT, the file's bytes are on the disk and not in the page cache: the read would wait. */
    @Test
    void saysNotCachedForBytesOnlyTheDiskHolds(@TempDir Path dir) throws IOException {
        assumeTrue(CachedRead.unavailableBecause() == null, CachedRead.unavailableBecause());
        Path file = dir.resolve("uncached");
        ByteBuffer block = ByteBuffer.allocateDirect(2 * 4096).alignedSlice(4096);
        block.limit(4096);
        while (block.hasRemaining()) {
            block.put((byte) 42);
        }
        block.flip();
        try (FileChannel direct = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                DirectOpenOption.require())) {
            direct.write(block, 0);
            direct.force(true);
        } catch (UnsupportedOperationException | IOException e) {
            assumeTrue(false, "O_DIRECT on " + dir + ": " + e);
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer dst = ByteBuffer.allocateDirect(4096);
            assertThat(CachedRead.read(channel, dst, 0)).isEqualTo(CachedRead.NOT_CACHED);
            assertThat(dst.position()).isZero();
            assertThat(channel.read(dst, 0)).isEqualTo(4096);
            dst.clear();
            assertThat(CachedRead.read(channel, dst, 0)).as("cached by the ordinary read").isEqualTo(4096);
            assertThat(dst.get(4095)).isEqualTo((byte) 42);
        }
    }

    @Test
    void aReadPastTheEndIsNotCachedAndAHeapBufferIsRefused(@TempDir Path dir) throws IOException {
        assumeTrue(CachedRead.unavailableBecause() == null, CachedRead.unavailableBecause());
        Path file = dir.resolve("short");
        Files.write(file, new byte[100]);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer dst = ByteBuffer.allocateDirect(200);
            assertThat(CachedRead.read(channel, dst, 0)).isEqualTo(CachedRead.NOT_CACHED);
            assertThat(dst.position()).isZero();
            assertThatThrownBy(() -> CachedRead.read(channel, ByteBuffer.allocate(10), 0))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
