package io.shardvault.s3.internal.ops;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.shardvault.s3.BucketInfo;
import io.shardvault.s3.ObjectLock;
import io.shardvault.s3.ObjectLockConfiguration;
import io.shardvault.s3.RetentionMode;
import io.shardvault.s3.internal.S3Error;
import io.shardvault.s3.internal.S3Request;
import io.shardvault.s3.internal.xml.XmlElement;
import io.shardvault.s3.internal.xml.XmlWriter;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.concurrent.CompletableFuture;

/**
 * Object Lock (issue #9): Put/GetObjectLockConfiguration, Put/GetObjectRetention and
 * Put/GetObjectLegalHold. This layer only parses and formats; the store enforces (COMPLIANCE never
 * shortened, GOVERNANCE only with the bypass), atomically in the catalog.
 *
 * <p>Request XML is read by local names, so documents with or without the S3 namespace are accepted
 * (some clients send {@code <Retention>} with no {@code xmlns}).
 */
final class LockOperations {
    private LockOperations() {
    }

    static CompletableFuture<Void> getConfiguration(Op op) {
        return op.store().getObjectLockConfiguration(op.caller(), op.req().bucket()).thenAccept(c -> {
            if (!c.enabled()) {
                throw notConfigured(op.req().bucket());
            }
            XmlWriter xml = XmlWriter.document("ObjectLockConfiguration").element("ObjectLockEnabled", "Enabled");
            if (c.defaultMode() != null) {
                xml.start("Rule").start("DefaultRetention").element("Mode", c.defaultMode().name());
                if (c.defaultDays() > 0) {
                    xml.element("Days", c.defaultDays());
                } else {
                    xml.element("Years", c.defaultYears());
                }
                xml.end().end();
            }
            op.respondXml(xml, null);
        });
    }

    static CompletableFuture<Void> putConfiguration(Op op) {
        S3Request r = op.req();
        return op.readXml(true).thenCompose(xml -> {
            ObjectLockConfiguration wanted = parseConfiguration(xml);
            return op.store().headBucket(op.caller(), r.bucket()).thenCompose(b -> {
                if (!b.objectLockEnabled()) {
                    throw new S3Error("InvalidBucketState", HttpResponseStatus.CONFLICT,
                            "Object Lock configuration cannot be enabled on existing buckets");
                }
                return op.store().putObjectLockConfiguration(op.caller(), r.bucket(), wanted);
            });
        }).thenAccept(v -> op.respond(HttpResponseStatus.OK, null));
    }

    static ObjectLockConfiguration parseConfiguration(XmlElement xml) {
        if (!xml.name().equals("ObjectLockConfiguration")) {
            throw S3Error.malformedXml();
        }
        String enabled = xml.childText("ObjectLockEnabled");
        if (enabled != null && !enabled.trim().equals("Enabled")) {
            throw S3Error.malformedXml();
        }
        XmlElement rule = xml.first("Rule");
        if (rule == null) {
            return new ObjectLockConfiguration(true, null, 0, 0);
        }
        XmlElement retention = rule.first("DefaultRetention");
        if (retention == null) {
            throw S3Error.malformedXml();
        }
        RetentionMode mode = mode(retention.childText("Mode"));
        String days = retention.childText("Days");
        String years = retention.childText("Years");
        if (mode == null || (days == null) == (years == null)) {
            throw S3Error.malformedXml();
        }
        int d = days == null ? 0 : positive(days, "Days");
        int y = years == null ? 0 : positive(years, "Years");
        return new ObjectLockConfiguration(true, mode, d, y);
    }

    static CompletableFuture<Void> getRetention(Op op) {
        S3Request r = op.req();
        return lockedBucket(op).thenCompose(b -> op.store().headObject(op.caller(), r.bucket(), r.key(),
                r.param("versionId"))).thenAccept(info -> {
                    if (info.lock().mode() == null) {
                        throw new S3Error("NoSuchObjectLockConfiguration", HttpResponseStatus.NOT_FOUND,
                                "The specified object does not have a ObjectLock configuration");
                    }
                    op.respondXml(XmlWriter.document("Retention").element("Mode", info.lock().mode().name())
                            .element("RetainUntilDate", info.lock().retainUntil()), null);
                });
    }

    static CompletableFuture<Void> putRetention(Op op) {
        S3Request r = op.req();
        return op.readXml(true).thenCompose(xml -> {
            ObjectLock retention = parseRetention(xml);
            return lockedBucket(op).thenCompose(b -> op.store().putObjectRetention(op.caller(), r.bucket(), r.key(),
                    r.param("versionId"), retention, ObjectOperations.bypass(r)));
        }).thenAccept(v -> op.respond(HttpResponseStatus.OK, null));
    }

    /** A {@code <Retention>}; an empty one (no mode, no date) asks to remove the retention. */
    static ObjectLock parseRetention(XmlElement xml) {
        if (!xml.name().equals("Retention")) {
            throw S3Error.malformedXml();
        }
        RetentionMode mode = mode(xml.childText("Mode"));
        String until = xml.childText("RetainUntilDate");
        if ((mode == null) != (until == null || until.isBlank())) {
            throw S3Error.malformedXml();
        }
        if (mode == null) {
            return ObjectLock.NONE;
        }
        Instant t;
        try {
            t = Instant.parse(until.trim());
        } catch (DateTimeParseException e) {
            throw S3Error.malformedXml();
        }
        if (!t.isAfter(Instant.now())) {
            throw S3Error.invalidArgument("The retain until date must be in the future!", "RetainUntilDate", until);
        }
        return new ObjectLock(mode, t, false);
    }

    static CompletableFuture<Void> getLegalHold(Op op) {
        S3Request r = op.req();
        return lockedBucket(op).thenCompose(b -> op.store().headObject(op.caller(), r.bucket(), r.key(),
                r.param("versionId"))).thenAccept(info -> op.respondXml(XmlWriter.document("LegalHold")
                        .element("Status", info.lock().legalHold() ? "ON" : "OFF"), null));
    }

    static CompletableFuture<Void> putLegalHold(Op op) {
        S3Request r = op.req();
        return op.readXml(true).thenCompose(xml -> {
            if (!xml.name().equals("LegalHold")) {
                throw S3Error.malformedXml();
            }
            String status = xml.childText("Status");
            boolean on;
            if ("ON".equals(status)) {
                on = true;
            } else if ("OFF".equals(status)) {
                on = false;
            } else {
                throw S3Error.malformedXml();
            }
            return lockedBucket(op).thenCompose(b -> op.store().putObjectLegalHold(op.caller(), r.bucket(), r.key(),
                    r.param("versionId"), on));
        }).thenAccept(v -> op.respond(HttpResponseStatus.OK, null));
    }

    /** The bucket, failing as S3 does when it has no Object Lock. */
    private static CompletableFuture<BucketInfo> lockedBucket(Op op) {
        return op.store().headBucket(op.caller(), op.req().bucket()).thenApply(b -> {
            if (!b.objectLockEnabled()) {
                throw S3Error.badRequest("InvalidRequest", "Bucket is missing Object Lock Configuration");
            }
            return b;
        });
    }

    private static RetentionMode mode(String s) {
        if (s == null || s.isBlank()) {
            return null;
        }
        return switch (s.trim()) {
            case "GOVERNANCE" -> RetentionMode.GOVERNANCE;
            case "COMPLIANCE" -> RetentionMode.COMPLIANCE;
            default -> throw S3Error.malformedXml();
        };
    }

    private static int positive(String s, String name) {
        try {
            int n = Integer.parseInt(s.trim());
            if (n <= 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw S3Error.invalidArgument("Default retention period must be a positive integer value", name, s);
        }
    }

    private static S3Error notConfigured(String bucket) {
        return new S3Error("ObjectLockConfigurationNotFoundError", HttpResponseStatus.NOT_FOUND,
                "Object Lock configuration does not exist for this bucket").with("BucketName", bucket);
    }
}
