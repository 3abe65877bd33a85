package io.shardvault.s3.internal.ops;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.shardvault.s3.AccessScope;
import io.shardvault.s3.Caller;
import io.shardvault.s3.internal.S3Error;
import io.shardvault.s3.internal.S3Request;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Maps method + addressing + query to an operation. Known S3 sub-resources that are not
 * implemented answer {@code NotImplemented} (after authentication), never a wrong success.
 */
public final class Router {
    /** Sub-resources S3 defines that this server does not implement yet. */
    private static final Set<String> UNSUPPORTED = Set.of("accelerate", "analytics", "cors", "encryption",
            "intelligent-tiering", "inventory", "logging", "metrics", "notification",
            "ownershipControls", "policy", "policyStatus", "publicAccessBlock", "replication", "requestPayment",
            "tagging", "website", "torrent", "restore", "select",
            "attributes", "session", "metadataConfiguration", "metadataTable", "renameObject");

    private Router() {
    }

    /** One operation's handler. */
    @FunctionalInterface
    public interface Handler {
        CompletableFuture<Void> handle(Op op);
    }

    /**
     * The operations an unsigned request may attempt (issue #17); the store then lets it in only as far
     * as the bucket's or the object's canned ACL grants everyone.
     */
    private static final Set<String> ANONYMOUS_OPERATIONS = Set.of("GetObject", "HeadObject", "HeadBucket",
            "ListObjects", "ListObjectsV2", "ListObjectVersions", "PutObject", "DeleteObject");

    /**
     * A routed operation.
     *
     * @param writes whether it changes anything (an object, a bucket, a setting, an upload): a read-only
     *     key ({@link AccessScope#readOnly()}) is refused every route that writes
     */
    public record Route(String name, Handler handler, boolean writes) {
        /** An operation that changes nothing. */
        public static Route read(String name, Handler handler) {
            return new Route(name, handler, false);
        }

        /** An operation that changes something. */
        public static Route write(String name, Handler handler) {
            return new Route(name, handler, true);
        }

        /**
         * The handler for this caller: for an unsigned request {@link #anonymousHandler()}; for a key with
         * an {@link AccessScope}, this route's handler behind the scope's check; else the handler itself.
         */
        public Handler handlerFor(Caller caller) {
            if (caller.isAnonymous()) {
                return anonymousHandler();
            }
            if (!caller.scope().restricted()) {
                return handler;
            }
            return op -> {
                ScopeCheck.check(this, caller.scope(), op.req());
                return handler.handle(op);
            };
        }

        /** The handler for an unsigned request: this route's own when anyone may try it, else a refusal. */
        public Handler anonymousHandler() {
            if (ANONYMOUS_OPERATIONS.contains(name)) {
                return handler;
            }
            return name.equals("CreateBucket") ? op -> CompletableFuture.failedFuture(anonymousDenied())
                    : Router::refuseAnonymous;
        }
    }

    private static S3Error anonymousDenied() {
        return S3Error.accessDenied("Access Denied");
    }

    /**
     * {@code AccessDenied} for an unsigned request, except that a bucket that does not exist is
     * {@code NoSuchBucket}, as S3 answers anyone.
     */
    private static CompletableFuture<Void> refuseAnonymous(Op op) {
        S3Error denied = anonymousDenied();
        if (op.req().bucket() == null) {
            return CompletableFuture.failedFuture(denied);
        }
        return op.store().headBucket(op.caller(), op.req().bucket())
                .thenCompose(b -> CompletableFuture.failedFuture(denied));
    }

    public static Route route(S3Request r) {
        return route(r, true);
    }

    /** The route ignoring SOSAPI's virtual keys (they are ordinary keys when SOSAPI is off). */
    static Route routeStored(S3Request r) {
        return route(r, false);
    }

    private static Route route(S3Request r, boolean virtualKeys) {
        String method = r.method().name();
        if (r.hasParam("object-lock") && r.key() == null && r.bucket() != null) {
            return switch (method) {
                case "GET" -> Route.read("GetObjectLockConfiguration", LockOperations::getConfiguration);
                case "PUT" -> Route.write("PutObjectLockConfiguration", LockOperations::putConfiguration);
                default -> methodNotAllowed(r);
            };
        }
        if (r.key() != null && (r.hasParam("retention") || r.hasParam("legal-hold"))) {
            boolean retention = r.hasParam("retention");
            return switch (method) {
                case "GET" -> retention ? Route.read("GetObjectRetention", LockOperations::getRetention)
                        : Route.read("GetObjectLegalHold", LockOperations::getLegalHold);
                case "PUT" -> retention ? Route.write("PutObjectRetention", LockOperations::putRetention)
                        : Route.write("PutObjectLegalHold", LockOperations::putLegalHold);
                default -> methodNotAllowed(r);
            };
        }
        if (r.hasParam("object-lock") || r.hasParam("retention") || r.hasParam("legal-hold")) {
            return methodNotAllowed(r);
        }
        if (r.hasParam("lifecycle")) {
            if (r.bucket() == null || r.key() != null) {
                return methodNotAllowed(r);
            }
            return switch (method) {
                case "GET" -> Route.read("GetBucketLifecycleConfiguration", LifecycleOperations::get);
                case "PUT" -> Route.write("PutBucketLifecycleConfiguration", LifecycleOperations::put);
                case "DELETE" -> Route.write("DeleteBucketLifecycle", LifecycleOperations::delete);
                default -> methodNotAllowed(r);
            };
        }
        if (r.hasParam("acl")) {
            if (r.bucket() == null) {
                return methodNotAllowed(r);
            }
            boolean object = r.key() != null;
            return switch (method) {
                case "GET" -> object ? Route.read("GetObjectAcl", AclOperations::getObjectAcl)
                        : Route.read("GetBucketAcl", AclOperations::getBucketAcl);
                case "PUT" -> object ? Route.write("PutObjectAcl", AclOperations::putObjectAcl)
                        : Route.write("PutBucketAcl", AclOperations::putBucketAcl);
                default -> methodNotAllowed(r);
            };
        }
        for (String sub : UNSUPPORTED) {
            if (r.hasParam(sub)) {
                return fail(r, sub, S3Error.notImplemented("?" + sub));
            }
        }
        String m = r.method().name();
        if (r.bucket() == null) {
            if (m.equals("GET")) {
                return Route.read("ListBuckets", BucketOperations::listBuckets);
            }
            return methodNotAllowed(r);
        }
        if (r.key() == null) {
            switch (m) {
                case "PUT":
                    if (r.hasParam("versioning")) {
                        return Route.write("PutBucketVersioning", BucketOperations::putVersioning);
                    }
                    return Route.write("CreateBucket", BucketOperations::createBucket);
                case "DELETE":
                    return Route.write("DeleteBucket", BucketOperations::deleteBucket);
                case "HEAD":
                    return Route.read("HeadBucket", BucketOperations::headBucket);
                case "GET":
                    if (r.hasParam("location")) {
                        return Route.read("GetBucketLocation", BucketOperations::getLocation);
                    }
                    if (r.hasParam("versioning")) {
                        return Route.read("GetBucketVersioning", BucketOperations::getVersioning);
                    }
                    if (r.hasParam("versions")) {
                        return Route.read("ListObjectVersions", ListOperations::listVersions);
                    }
                    if (r.hasParam("uploads")) {
                        return Route.read("ListMultipartUploads", MultipartOperations::listUploads);
                    }
                    if ("2".equals(r.param("list-type"))) {
                        return Route.read("ListObjectsV2", ListOperations::listV2);
                    }
                    if (r.hasParam("list-type")) {
                        return fail(r, "ListObjects", S3Error.invalidArgument("Invalid list-type", "list-type",
                                r.param("list-type")));
                    }
                    return Route.read("ListObjects", ListOperations::listV1);
                case "POST":
                    if (r.hasParam("delete")) {
                        return Route.write("DeleteObjects", ObjectOperations::deleteObjects);
                    }
                    return fail(r, "PostBucket", S3Error.notImplemented("POST on a bucket without ?delete"));
                default:
                    return methodNotAllowed(r);
            }
        }
        Route sosapi = virtualKeys ? SosapiOperations.route(r) : null;
        if (sosapi != null) {
            return sosapi;
        }
        boolean copy = r.header("x-amz-copy-source") != null;
        switch (m) {
            case "PUT":
                if (r.hasParam("uploadId") || r.hasParam("partNumber")) {
                    return copy ? Route.write("UploadPartCopy", MultipartOperations::uploadPartCopy)
                            : Route.write("UploadPart", MultipartOperations::uploadPart);
                }
                return copy ? Route.write("CopyObject", ObjectOperations::copyObject)
                        : Route.write("PutObject", ObjectOperations::putObject);
            case "GET":
                if (r.hasParam("uploadId")) {
                    return Route.read("ListParts", MultipartOperations::listParts);
                }
                return Route.read("GetObject", ObjectOperations::getObject);
            case "HEAD":
                return Route.read("HeadObject", ObjectOperations::headObject);
            case "DELETE":
                if (r.hasParam("uploadId")) {
                    return Route.write("AbortMultipartUpload", MultipartOperations::abort);
                }
                return Route.write("DeleteObject", ObjectOperations::deleteObject);
            case "POST":
                if (r.hasParam("uploads")) {
                    return Route.write("CreateMultipartUpload", MultipartOperations::create);
                }
                if (r.hasParam("uploadId")) {
                    return Route.write("CompleteMultipartUpload", MultipartOperations::complete);
                }
                return fail(r, "PostObject", S3Error.notImplemented("POST on an object"));
            default:
                return methodNotAllowed(r);
        }
    }

    /** A route that only answers an error: it counts as a write unless the method only reads. */
    private static Route fail(S3Request r, String name, S3Error error) {
        return new Route(name, op -> CompletableFuture.failedFuture(error), !readsOnly(r));
    }

    private static boolean readsOnly(S3Request r) {
        String m = r.method().name();
        return m.equals("GET") || m.equals("HEAD");
    }

    private static Route methodNotAllowed(S3Request r) {
        return fail(r, "MethodNotAllowed", new S3Error("MethodNotAllowed", HttpResponseStatus.METHOD_NOT_ALLOWED,
                "The specified method is not allowed against this resource."));
    }
}
