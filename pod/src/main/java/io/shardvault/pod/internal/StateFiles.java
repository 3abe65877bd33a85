package io.shardvault.pod.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The two durable moves on files of a pod instance's state directory (not on a tome, so not
 * through {@link TomeIo}): replace a small file atomically, and sync a directory. Used by
 * {@link AssignmentFile}, {@link FailedTomeMarker}, {@link CleanShutdownMarker} and the
 * {@link PurgeQueue}'s checkpoint.
 *
 * <p>Stateless.
 */
final class StateFiles {
    private StateFiles() {
    }

    /**
     * Replaces {@code dir/name} with {@code content}, atomically and durably: writes
     * {@code name.tmp}, fsyncs it, renames it over {@code name}, fsyncs {@code dir}. A crash leaves
     * the old file or the new one, never a torn one. Creates {@code dir} if needed.
     */
    static void replace(Path dir, String name, ByteBuffer content) throws IOException {
        Files.createDirectories(dir);
        Path tmp = dir.resolve(name + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            while (content.hasRemaining()) {
                ch.write(content);
            }
            ch.force(true);
        }
        Files.move(tmp, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        syncDirectory(dir);
    }

    /** Makes the entries of {@code dir} (creations, renames, deletions) durable. */
    static void syncDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }
}
