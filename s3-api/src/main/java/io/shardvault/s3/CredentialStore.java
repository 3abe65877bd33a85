package io.shardvault.s3;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Looks access keys up; the S3 server calls it once per request (cache inside when lookups are
 * expensive). Implementations must be thread-safe.
 */
public interface CredentialStore {
    /**
     * The key with this id, or empty when there is none ({@code InvalidAccessKeyId}).
     * Fails through the future on a lookup failure (answered {@code ServiceUnavailable}).
     */
    CompletableFuture<Optional<Credential>> find(String accessKeyId);
}
