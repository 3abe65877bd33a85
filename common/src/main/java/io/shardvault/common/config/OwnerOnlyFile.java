package io.shardvault.common.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;

/**
 * Reads a file that holds a secret (a token, a cluster key), refusing one its group or others may open:
 * a secret kept beside a service is only as private as the file's mode (issue #21).
 */
public final class OwnerOnlyFile {
    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    private OwnerOnlyFile() {
    }

    /**
     * The file's text, stripped.
     *
     * @param key the setting that named the file, for the messages
     * @throws ConfigException naming {@code key} when the file is missing, unreadable, or open to its group or
     *         others
     */
    public static String read(String key, Path path) {
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw new ConfigException(key + " = " + path + " is not a readable file");
        }
        try {
            PosixFileAttributeView posix = Files.getFileAttributeView(path, PosixFileAttributeView.class);
            if (posix != null) {
                Set<PosixFilePermission> open = EnumSet.noneOf(PosixFilePermission.class);
                open.addAll(posix.readAttributes().permissions());
                open.retainAll(OTHERS);
                if (!open.isEmpty()) {
                    throw new ConfigException(key + " = " + path + " is open to its group or others (" + open
                            + "): chmod 600 it, readable by the service's user only");
                }
            }
            return Files.readString(path, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new ConfigException(key + " = " + path + " cannot be read: " + e.getMessage(), e);
        }
    }
}
