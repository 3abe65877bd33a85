package io.shardvault.s3;

import java.util.Objects;

/**
 * A key and optionally a version, as DeleteObjects names them.
 *
 * @param key the key
 * @param versionId the version, or {@code null} for the current one
 */
public record ObjectIdentifier(String key, String versionId) {
    public ObjectIdentifier {
        Objects.requireNonNull(key, "key");
    }
}
