package io.shardvault.coordinator.store;

import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardvaultException;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.s3.AccessScope;
import io.shardvault.s3.Credential;
import io.shardvault.s3.CredentialStore;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The S3 server's access keys, from the catalog: a key's owner is its account's id, its scope its bucket and
 * read-only limits. Thread-safe.
 */
public final class CatalogCredentialStore implements CredentialStore {
    private final Catalog catalog;

    public CatalogCredentialStore(Catalog catalog) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
    }

    @Override
    public CompletableFuture<Optional<Credential>> find(String accessKeyId) {
        return catalog.lookupAccessKey(accessKeyId).handle((key, failure) -> {
            if (failure == null) {
                return Optional.of(new Credential(key.accessKeyId(), key.secretKey(), key.enabled(), key.accountId(),
                        new AccessScope(key.bucket(), key.readOnly())));
            }
            Throwable cause = ShardvaultException.unwrap(failure);
            if (cause instanceof CatalogException c && c.code() == ErrorCode.INVALID_ACCESS_KEY) {
                return Optional.empty();
            }
            throw new CompletionException(cause);
        });
    }
}
