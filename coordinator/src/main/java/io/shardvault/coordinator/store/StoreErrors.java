package io.shardvault.coordinator.store;

import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardvaultException;
import io.shardvault.s3.ObjectStoreException;

import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The store's one error translation: catalog, data-path and RPC failures (every
 * {@link ShardvaultException}) keep their stable codes as an {@link ObjectStoreException} (the S3 edge
 * maps the codes); an unknown failure becomes {@code INTERNAL}. Stateless.
 */
final class StoreErrors {
    private StoreErrors() {
    }

    /** Every failure of {@code future} leaves as an {@link ObjectStoreException} with the code it had. */
    static <T> CompletableFuture<T> map(CompletableFuture<T> future) {
        return future.handle((value, failure) -> {
            if (failure == null) {
                return CompletableFuture.completedFuture(value);
            }
            return CompletableFuture.<T>failedFuture(asStoreException(ShardvaultException.unwrap(failure)));
        }).thenCompose(Function.identity());
    }

    private static ObjectStoreException asStoreException(Throwable t) {
        if (t instanceof ObjectStoreException e) {
            return e;
        }
        if (t instanceof ShardvaultException e) {
            return new ObjectStoreException(e.code(), e.getMessage(), e);
        }
        return new ObjectStoreException(ErrorCode.INTERNAL, String.valueOf(t), t);
    }
}
