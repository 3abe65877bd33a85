package io.shardvault.common.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Damage done to files under a stopped server, as a disk or a crash would do it. */
public final class FileFaults {
    private FileFaults() {
    }

    /** Flips the bits of {@code mask} in the byte at {@code at}, and forces the file. */
    public static void flipBits(Path file, long at, int mask) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, at);
            one.put(0, (byte) (one.get(0) ^ mask));
            one.rewind();
            channel.write(one, at);
            channel.force(true);
        }
    }

    /** Cuts the file to {@code length} bytes, as a power loss cuts what was never synced. */
    public static void truncate(Path file, long length) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(length);
        }
    }
}
