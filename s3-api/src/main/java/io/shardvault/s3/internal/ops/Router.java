package io.shardvault.s3.internal.ops;

import io.netty.handler.codec.http.HttpResponseStatus;
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
            "intelligent-tiering", "inventory", "lifecycle", "logging", "metrics", "notification",
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

    /** A routed operation. */
    public record Route(String name, Handler handler) {
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
                case "GET" -> new Route("GetObjectLockConfiguration", LockOperations::getConfiguration);
                case "PUT" -> new Route("PutObjectLockConfiguration", LockOperations::putConfiguration);
                default -> methodNotAllowed();
            };
        }
        if (r.key() != null && (r.hasParam("retention") || r.hasParam("legal-hold"))) {
            boolean retention = r.hasParam("retention");
            return switch (method) {
                case "GET" -> retention ? new Route("GetObjectRetention", LockOperations::getRetention)
                        : new Route("GetObjectLegalHold", LockOperations::getLegalHold);
                case "PUT" -> retention ? new Route("PutObjectRetention", LockOperations::putRetention)
                        : new Route("PutObjectLegalHold", LockOperations::putLegalHold);
                default -> methodNotAllowed();
            };
        }
        if (r.hasParam("object-lock") || r.hasParam("retention") || r.hasParam("legal-hold")) {
            return methodNotAllowed();
        }
        if (r.hasParam("acl")) {
            if (r.bucket() == null) {
                return methodNotAllowed();
            }
            boolean object = r.key() != null;
            return switch (method) {
                case "GET" -> object ? new Route("GetObjectAcl", AclOperations::getObjectAcl)
                        : new Route("GetBucketAcl", AclOperations::getBucketAcl);
                case "PUT" -> object ? new Route("PutObjectAcl", AclOperations::putObjectAcl)
                        : new Route("PutBucketAcl", AclOperations::putBucketAcl);
                default -> methodNotAllowed();
            };
        }
        for (String sub : UNSUPPORTED) {
            if (r.hasParam(sub)) {
                return fail(sub, S3Error.notImplemented("?" + sub));
            }
        }
        String m = r.method().name();
        if (r.bucket() == null) {
            if (m.equals("GET")) {
                return new Route("ListBuckets", BucketOperations::listBuckets);
            }
            return methodNotAllowed();
        }
        if (r.key() == null) {
            switch (m) {
                case "PUT":
                    if (r.hasParam("versioning")) {
                        return new Route("PutBucketVersioning", BucketOperations::putVersioning);
                    }
                    return new Route("CreateBucket", BucketOperations::createBucket);
                case "DELETE":
                    return new Route("DeleteBucket", BucketOperations::deleteBucket);
                case "HEAD":
                    return new Route("HeadBucket", BucketOperations::headBucket);
                case "GET":
                    if (r.hasParam("location")) {
                        return new Route("GetBucketLocation", BucketOperations::getLocation);
                    }
                    if (r.hasParam("versioning")) {
                        return new Route("GetBucketVersioning", BucketOperations::getVersioning);
                    }
                    if (r.hasParam("versions")) {
                        return new Route("ListObjectVersions", ListOperations::listVersions);
                    }
                    if (r.hasParam("uploads")) {
                        return new Route("ListMultipartUploads", MultipartOperations::listUploads);
                    }
                    if ("2".equals(r.param("list-type"))) {
                        return new Route("ListObjectsV2", ListOperations::listV2);
                    }
                    if (r.hasParam("list-type")) {
                        return fail("ListObjects", S3Error.invalidArgument("Invalid list-type", "list-type",
                                r.param("list-type")));
                    }
                    return new Route("ListObjects", ListOperations::listV1);
                case "POST":
                    if (r.hasParam("delete")) {
                        return new Route("DeleteObjects", ObjectOperations::deleteObjects);
                    }
                    return fail("PostBucket", S3Error.notImplemented("POST on a bucket without ?delete"));
                default:
                    return methodNotAllowed();
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
                    return copy ? new Route("UploadPartCopy", MultipartOperations::uploadPartCopy)
                            : new Route("UploadPart", MultipartOperations::uploadPart);
                }
                return copy ? new Route("CopyObject", ObjectOperations::copyObject)
                        : new Route("PutObject", ObjectOperations::putObject);
            case "GET":
                if (r.hasParam("uploadId")) {
                    return new Route("ListParts", MultipartOperations::listParts);
                }
                return new Route("GetObject", ObjectOperations::getObject);
            case "HEAD":
                return new Route("HeadObject", ObjectOperations::headObject);
            case "DELETE":
                if (r.hasParam("uploadId")) {
                    return new Route("AbortMultipartUpload", MultipartOperations::abort);
                }
                return new Route("DeleteObject", ObjectOperations::deleteObject);
            case "POST":
                if (r.hasParam("uploads")) {
                    return new Route("CreateMultipartUpload", MultipartOperations::create);
                }
                if (r.hasParam("uploadId")) {
                    return new Route("CompleteMultipartUpload", MultipartOperations::complete);
                }
                return fail("PostObject", S3Error.notImplemented("POST on an object"));
            default:
                return methodNotAllowed();
        }
    }

    private static Route fail(String name, S3Error error) {
        return new Route(name, op -> CompletableFuture.failedFuture(error));
    }

    private static Route methodNotAllowed() {
        return fail("MethodNotAllowed", new S3Error("MethodNotAllowed", HttpResponseStatus.METHOD_NOT_ALLOWED,
                "The specified method is not allowed against this resource."));
    }
}
