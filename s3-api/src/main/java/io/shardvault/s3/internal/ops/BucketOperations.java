package io.shardvault.s3.internal.ops;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardvaultException;
import io.shardvault.s3.BucketInfo;
import io.shardvault.s3.CannedAcl;
import io.shardvault.s3.ObjectStoreException;
import io.shardvault.s3.VersioningStatus;
import io.shardvault.s3.internal.S3Error;
import io.shardvault.s3.internal.S3Request;
import io.shardvault.s3.internal.xml.XmlElement;
import io.shardvault.s3.internal.xml.XmlWriter;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** ListBuckets, CreateBucket, DeleteBucket, HeadBucket, GetBucketLocation, bucket versioning. */
final class BucketOperations {
    /** The region with S3's legacy answers (an empty location constraint, CreateBucket of an own bucket: 200). */
    private static final String LEGACY_REGION = "us-east-1";
    private BucketOperations() {
    }

    /** ListBuckets' page size when paginating without max-buckets, and the largest max-buckets. */
    static final int MAX_BUCKETS = 10_000;

    /**
     * ListBuckets. Unpaginated (every bucket) unless the request names {@code max-buckets} (1 to
     * 10,000), {@code continuation-token}, {@code prefix} or {@code bucket-region}; then pages of
     * {@code max-buckets} (default 10,000), in name order, filtered by prefix and region, with the next
     * page's token as {@code ContinuationToken} while more remain and {@code Prefix} echoed, as S3 does.
     * The token is opaque (the last name of the page, encoded); an empty one starts from the beginning.
     */
    static CompletableFuture<Void> listBuckets(Op op) {
        S3Request r = op.req();
        String maxParam = r.param("max-buckets");
        String token = r.param("continuation-token");
        String prefix = r.param("prefix");
        String region = r.param("bucket-region");
        boolean paginated = maxParam != null || token != null || prefix != null || region != null;
        int max = maxParam != null ? maxBuckets(maxParam) : paginated ? MAX_BUCKETS : Integer.MAX_VALUE;
        String after = token == null || token.isEmpty() ? null : ListOperations.decodeToken(token);
        return op.store().listBuckets(op.caller()).thenAccept(all -> {
            List<BucketInfo> matching = all.stream()
                    .filter(b -> op.caller().scope().allowsBucket(b.name()))
                    .filter(b -> prefix == null || b.name().startsWith(prefix))
                    .filter(b -> region == null || b.region().equals(region))
                    .filter(b -> after == null || b.name().compareTo(after) > 0)
                    .sorted(Comparator.comparing(BucketInfo::name))
                    .toList();
            List<BucketInfo> page = matching.size() > max ? matching.subList(0, max) : matching;
            XmlWriter xml = XmlWriter.document("ListAllMyBucketsResult");
            xml.start("Owner").element("ID", op.caller().owner()).element("DisplayName", op.caller().owner()).end();
            xml.start("Buckets");
            for (BucketInfo b : page) {
                xml.start("Bucket").element("Name", b.name()).element("CreationDate", b.creationDate())
                        .element("BucketRegion", b.region()).end();
            }
            xml.end();
            if (page.size() < matching.size()) {
                xml.element("ContinuationToken", ListOperations.encodeToken(page.get(page.size() - 1).name()));
            }
            xml.element("Prefix", prefix);
            op.respondXml(xml, null);
        });
    }

    private static int maxBuckets(String value) {
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= 1 && n <= MAX_BUCKETS) {
                return n;
            }
        } catch (NumberFormatException e) {
            // Answered below.
        }
        throw S3Error.invalidArgument("max-buckets must be an integer between 1 and " + MAX_BUCKETS, "max-buckets",
                value);
    }

    /**
     * CreateBucket. On a bucket the caller's owner already has, S3 answers 200 in us-east-1 (its legacy
     * behaviour, nothing changes) and {@code 409 BucketAlreadyOwnedByYou} in every other region; a bucket of
     * another owner is {@code 409 BucketAlreadyExists} everywhere. The region is the server's.
     */
    static CompletableFuture<Void> createBucket(Op op) {
        String lockHeader = op.req().header("x-amz-bucket-object-lock-enabled");
        boolean lock = lockHeader != null && lockHeader.equalsIgnoreCase("true");
        String region = op.config().region();
        CannedAcl acl = AclOperations.fromHeaders(op.req(), op.caller().owner());
        return op.readXml(false).thenCompose(xml -> {
            if (xml != null) {
                if (!xml.name().equals("CreateBucketConfiguration")) {
                    throw S3Error.malformedXml();
                }
                String constraint = xml.childText("LocationConstraint");
                if (constraint != null && !constraint.isBlank() && !constraint.trim().equals(region)) {
                    throw S3Error.badRequest("IllegalLocationConstraintException", "The " + constraint.trim()
                            + " location constraint is incompatible for the region specific endpoint this request "
                            + "was sent to.");
                }
            }
            return op.store().createBucket(op.caller(), op.req().bucket(), region, lock, acl)
                    .thenApply(b -> b.name());
        }).exceptionally(failure -> {
            Throwable cause = ShardvaultException.unwrap(failure);
            if (region.equals(LEGACY_REGION) && cause instanceof ObjectStoreException e
                    && e.code() == ErrorCode.BUCKET_ALREADY_OWNED_BY_YOU) {
                return op.req().bucket();
            }
            throw failure instanceof CompletionException c ? c : new CompletionException(failure);
        }).thenAccept(name -> {
            HttpHeaders h = new DefaultHttpHeaders();
            h.set("Location", "/" + name);
            op.respond(HttpResponseStatus.OK, h);
        });
    }

    static CompletableFuture<Void> deleteBucket(Op op) {
        return op.store().deleteBucket(op.caller(), op.req().bucket())
                .thenAccept(v -> op.respond(HttpResponseStatus.NO_CONTENT, null));
    }

    static CompletableFuture<Void> headBucket(Op op) {
        return op.store().headBucket(op.caller(), op.req().bucket()).thenAccept(b -> {
            HttpHeaders h = new DefaultHttpHeaders();
            h.set("x-amz-bucket-region", b.region());
            op.respond(HttpResponseStatus.OK, h);
        });
    }

    static CompletableFuture<Void> getLocation(Op op) {
        return op.store().headBucket(op.caller(), op.req().bucket()).thenAccept(b -> {
            // HeadBucket also answers callers a bucket's ACL lets read; the location is the owner's.
            if (!b.owner().equals(op.caller().owner())) {
                throw S3Error.accessDenied("Access Denied");
            }
            XmlWriter xml = XmlWriter.document("LocationConstraint");
            // us-east-1 is reported as an empty constraint, as S3 does.
            if (!b.region().equals(LEGACY_REGION)) {
                xml.text(b.region());
            }
            op.respondXml(xml, null);
        });
    }

    static CompletableFuture<Void> getVersioning(Op op) {
        return op.store().getBucketVersioning(op.caller(), op.req().bucket()).thenAccept(status -> {
            XmlWriter xml = XmlWriter.document("VersioningConfiguration");
            if (status == VersioningStatus.ENABLED) {
                xml.element("Status", "Enabled");
            } else if (status == VersioningStatus.SUSPENDED) {
                xml.element("Status", "Suspended");
            }
            op.respondXml(xml, null);
        });
    }

    static CompletableFuture<Void> putVersioning(Op op) {
        return op.readXml(true).thenCompose(xml -> {
            if (!xml.name().equals("VersioningConfiguration")) {
                throw S3Error.malformedXml();
            }
            XmlElement statusElement = xml.first("Status");
            String s = statusElement == null ? "" : statusElement.text();
            VersioningStatus status = switch (s) {
                case "Enabled" -> VersioningStatus.ENABLED;
                case "Suspended" -> VersioningStatus.SUSPENDED;
                default -> throw S3Error.malformedXml();
            };
            return op.store().putBucketVersioning(op.caller(), op.req().bucket(), status);
        }).thenAccept(v -> op.respond(HttpResponseStatus.OK, null));
    }
}
