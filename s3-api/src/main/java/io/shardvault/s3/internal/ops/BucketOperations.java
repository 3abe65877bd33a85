package io.shardvault.s3.internal.ops;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.shardvault.s3.BucketInfo;
import io.shardvault.s3.CannedAcl;
import io.shardvault.s3.VersioningStatus;
import io.shardvault.s3.internal.S3Error;
import io.shardvault.s3.internal.xml.XmlElement;
import io.shardvault.s3.internal.xml.XmlWriter;
import java.util.concurrent.CompletableFuture;

/** ListBuckets, CreateBucket, DeleteBucket, HeadBucket, GetBucketLocation, bucket versioning. */
final class BucketOperations {
    private BucketOperations() {
    }

    static CompletableFuture<Void> listBuckets(Op op) {
        return op.store().listBuckets(op.caller()).thenAccept(buckets -> {
            XmlWriter xml = XmlWriter.document("ListAllMyBucketsResult");
            xml.start("Owner").element("ID", op.caller().owner()).element("DisplayName", op.caller().owner()).end();
            xml.start("Buckets");
            for (BucketInfo b : buckets) {
                xml.start("Bucket").element("Name", b.name()).element("CreationDate", b.creationDate())
                        .element("BucketRegion", b.region()).end();
            }
            xml.end();
            op.respondXml(xml, null);
        });
    }

    static CompletableFuture<Void> createBucket(Op op) {
        String lockHeader = op.req().header("x-amz-bucket-object-lock-enabled");
        boolean lock = lockHeader != null && lockHeader.equalsIgnoreCase("true");
        CannedAcl acl = AclOperations.fromHeaders(op.req(), op.caller().owner());
        return op.readXml(false).thenCompose(xml -> {
            String region = op.config().region();
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
            return op.store().createBucket(op.caller(), op.req().bucket(), region, lock, acl);
        }).thenAccept(b -> {
            HttpHeaders h = new DefaultHttpHeaders();
            h.set("Location", "/" + b.name());
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
            if (!b.region().equals("us-east-1")) {
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
