package io.shardvault.coordinator.store;

import io.shardvault.common.ErrorCode;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.data.DataPathException;
import io.shardvault.s3.ObjectStoreException;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * The store's one error translation: catalog, data-path and RPC failures keep their stable codes as
 * an {@link ObjectStoreException} (the S3 edge maps the codes); an unknown failure becomes
 * {@code INTERNAL}. Stateless.
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
            return CompletableFuture.<T>failedFuture(asStoreException(unwrap(failure)));
        }).thenCompose(Function.identity());
    }

    /** {@code failure} without the {@link CompletionException}s a future chain wrapped it in. */
    static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    private static ObjectStoreException asStoreException(Throwable t) {
        if (t instanceof ObjectStoreException e) {
            return e;
        }
        if (t instanceof CatalogException e) {
            return new ObjectStoreException(e.code(), e.getMessage(), e);
        }
        if (t instanceof DataPathException e) {
            return new ObjectStoreException(e.code(), e.getMessage(), e);
        }
        if (t instanceof RpcException e) {
            return new ObjectStoreException(e.code(), e.getMessage(), e);
        }
        return new ObjectStoreException(ErrorCode.INTERNAL, String.valueOf(t), t);
    }
}
