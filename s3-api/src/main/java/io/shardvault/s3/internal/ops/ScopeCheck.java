package io.shardvault.s3.internal.ops;

import io.shardvault.s3.AccessScope;
import io.shardvault.s3.internal.S3Error;
import io.shardvault.s3.internal.S3Request;

/**
 * The one place an {@link AccessScope} is enforced, before the operation runs (so a refused request
 * stores nothing): a read-only key is refused every route that {@linkplain Router.Route#writes() writes};
 * a bucket-scoped key is refused any request naming another bucket, as its target or as its copy source.
 * ListBuckets names no bucket: it answers with the key's bucket only ({@link BucketOperations}).
 */
final class ScopeCheck {
    private ScopeCheck() {
    }

    /** Throws {@code AccessDenied} unless {@code scope} allows {@code route} on {@code r}. */
    static void check(Router.Route route, AccessScope scope, S3Request r) {
        if (scope.readOnly() && route.writes()) {
            throw S3Error.accessDenied("Access Denied: the access key is read-only");
        }
        if (scope.bucket().isEmpty()) {
            return;
        }
        if (r.bucket() != null && !scope.allowsBucket(r.bucket())) {
            throw S3Error.accessDenied("Access Denied: the access key is limited to another bucket");
        }
        // Only copies carry a source; a read with a stray header reads nothing from it.
        if (route.writes() && r.header("x-amz-copy-source") != null
                && !scope.allowsBucket(ObjectOperations.copySource(r).bucket())) {
            throw S3Error.accessDenied("Access Denied: the access key is limited to another bucket");
        }
    }
}
