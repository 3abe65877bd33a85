package io.shardvault.s3.testing;

import io.shardvault.s3.Credential;
import io.shardvault.s3.CredentialStore;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/** Credentials from a map. Thread-safe. */
public final class MapCredentialStore implements CredentialStore {
    private final Map<String, Credential> keys = new ConcurrentHashMap<>();

    public MapCredentialStore add(Credential credential) {
        keys.put(credential.accessKeyId(), credential);
        return this;
    }

    @Override
    public CompletableFuture<Optional<Credential>> find(String accessKeyId) {
        return CompletableFuture.completedFuture(Optional.ofNullable(keys.get(accessKeyId)));
    }
}
