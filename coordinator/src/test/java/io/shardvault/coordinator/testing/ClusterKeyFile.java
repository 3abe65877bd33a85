package io.shardvault.coordinator.testing;

import io.shardvault.coordinator.catalog.SecretCipher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * The cluster key file of a test cluster ({@code catalog.secrets.keyFile}): one per directory, shared by every
 * catalog peer and coordinator started under it, as production shares one file among coordinators.
 */
public final class ClusterKeyFile {
    /** The file's name in its directory. */
    public static final String NAME = "catalog-secrets.key";

    private ClusterKeyFile() {
    }

    /**
     * {@code dir}'s key file, created (mode 0600, one fresh key) if it is not there yet. Safe across processes
     * (catalog peers in child JVMs): the file appears whole, by a hard link to a finished one, or not at all.
     */
    public static synchronized Path in(Path dir) {
        Path file = dir.resolve(NAME);
        if (Files.exists(file)) {
            return file;
        }
        try {
            Files.createDirectories(dir);
            Path written = SecretCipher.createKeyFile(dir.resolve(NAME + "." + UUID.randomUUID() + ".tmp"), "k1");
            try {
                Files.createLink(file, written);
            } catch (FileAlreadyExistsException e) {
                // Another process made it first: theirs is the cluster's key.
            } finally {
                Files.delete(written);
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
