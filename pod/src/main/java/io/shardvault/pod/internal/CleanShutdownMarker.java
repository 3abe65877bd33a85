package io.shardvault.pod.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An empty file {@code clean-shutdown} in the state directory, written (and synced) only after a
 * clean close has flushed every buffered write and queued every purge, with no tome failed (a
 * failed tome's shards have only their stash copies). A start that finds it knows nothing was left
 * unflushed, so it may skip recovery (and start while the stash is away); it deletes the marker,
 * durably, before serving, so a crash later is never mistaken for a clean stop.
 *
 * <p>Stateless.
 */
final class CleanShutdownMarker {
    static final String NAME = "clean-shutdown";

    private CleanShutdownMarker() {
    }

    static void write(Path stateDir) throws IOException {
        Files.createDirectories(stateDir);
        try (FileChannel ch = FileChannel.open(stateDir.resolve(NAME), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        StateFiles.syncDirectory(stateDir);
    }

    /** Returns whether the marker was there, and removes it durably. */
    static boolean consume(Path stateDir) throws IOException {
        boolean present = Files.deleteIfExists(stateDir.resolve(NAME));
        if (present) {
            StateFiles.syncDirectory(stateDir);
        }
        return present;
    }
}
