package io.shardvault.s3.internal.ops;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.shardvault.s3.LifecycleConfiguration;
import io.shardvault.s3.internal.S3Error;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Lifecycle rules (issue #24): Put/Get/DeleteBucketLifecycle(Configuration). This layer parses and formats
 * ({@link LifecycleConfiguration}); the store keeps the rules and the catalog leader applies them.
 */
final class LifecycleOperations {
    private LifecycleOperations() {
    }

    static CompletableFuture<Void> get(Op op) {
        return op.store().getBucketLifecycle(op.caller(), op.req().bucket()).thenAccept(c -> {
            if (c.isEmpty()) {
                throw new S3Error("NoSuchLifecycleConfiguration", HttpResponseStatus.NOT_FOUND,
                        "The lifecycle configuration does not exist").with("BucketName", op.req().bucket());
            }
            op.respondXml(c.get().xml(), null);
        });
    }

    static CompletableFuture<Void> put(Op op) {
        return op.readXml(true).thenCompose(xml -> op.store().putBucketLifecycle(op.caller(), op.req().bucket(),
                Optional.of(LifecycleConfiguration.parse(xml)))).thenAccept(v -> op.respond(HttpResponseStatus.OK, null));
    }

    static CompletableFuture<Void> delete(Op op) {
        return op.store().putBucketLifecycle(op.caller(), op.req().bucket(), Optional.empty())
                .thenAccept(v -> op.respond(HttpResponseStatus.NO_CONTENT, null));
    }
}
