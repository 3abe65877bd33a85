package io.shardvault.pod.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The identity stamp of a tome: a file {@code TOME} holding {@code pod=<name> tome=<index>},
 * written (and synced) the first time a pod instance uses the directory. A later start by another
 * instance, or with the tome list reordered (which would move every shard's placement), finds a
 * different stamp and refuses to start instead of serving the wrong shards.
 *
 * <p>Stateless.
 */
final class TomeStamp {
    static final String NAME = "TOME";

    private TomeStamp() {
    }

    static void check(TomeIo io, Path tomeDir, String podName, int index) throws IOException {
        String expected = "pod=" + podName + " tome=" + index;
        Path stamp = tomeDir.resolve(NAME);
        try {
            String found = Files.readString(stamp, StandardCharsets.UTF_8).trim();
            if (!found.equals(expected)) {
                throw new IOException("tome " + tomeDir + " is stamped '" + found + "' but is configured as '"
                        + expected + "': another pod's tome, or the tome list was reordered; refusing to start");
            }
            return;
        } catch (NoSuchFileException e) {
            // first use of this directory: stamp it below
        }
        try (TomeFile f = io.open(stamp, TomeIo.OpenMode.CREATE_NEW)) {
            byte[] bytes = (expected + "\n").getBytes(StandardCharsets.UTF_8);
            f.write(ByteBuffer.wrap(bytes), 0);
            f.sync(bytes.length);
        } catch (FileAlreadyExistsException e) {
            check(io, tomeDir, podName, index);
            return;
        }
        io.syncDirectory(tomeDir);
    }
}
