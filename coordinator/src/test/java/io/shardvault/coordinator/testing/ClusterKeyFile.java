package io.shardvault.coordinator.testing;

import io.shardvault.coordinator.catalog.SecretCipher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The cluster key file of a test cluster ({@code catalog.secrets.keyFile}): one per directory, shared by every
 * catalog peer and coordinator started under it, as production shares one file among coordinators.
 */
public final class ClusterKeyFile {
    /** The file's name in its directory. */
    public static final String NAME = "catalog-secrets.key";

    private ClusterKeyFile() {
    }

    /** {@code dir}'s key file, created (mode 0600, one fresh key) if it is not there yet. */
    public static synchronized Path in(Path dir) {
        Path file = dir.resolve(NAME);
        if (Files.exists(file)) {
            return file;
        }
        try {
            Files.createDirectories(dir);
            return SecretCipher.createKeyFile(file, "k1");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
