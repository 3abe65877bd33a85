package io.shardvault.coordinator.lifecycle;

import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.s3.LifecycleConfiguration;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A bucket's lifecycle configuration as the catalog keeps it: the validated document's XML, which the catalog
 * never interprets. The one place it is written and read back, for the S3 API, the expirer and the admin view.
 */
public final class StoredLifecycle {
    private StoredLifecycle() {
    }

    /** The bucket's configuration, if it has one: {@code NO_SUCH_BUCKET} from the catalog. */
    public static CompletableFuture<Optional<LifecycleConfiguration>> read(Catalog catalog, String bucket) {
        return catalog.bucketLifecycle(bucket).thenApply(doc -> doc.map(
                d -> LifecycleConfiguration.parse(d.getBytes(StandardCharsets.UTF_8))));
    }

    /** Replaces the bucket's configuration, or removes it (empty). */
    public static CompletableFuture<Void> write(Catalog catalog, String bucket,
                                                Optional<LifecycleConfiguration> configuration) {
        return catalog.setBucketLifecycle(bucket, configuration.map(c -> new String(c.toXml(), StandardCharsets.UTF_8)));
    }
}
