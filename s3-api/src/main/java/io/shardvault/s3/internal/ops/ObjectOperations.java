package io.shardvault.s3.internal.ops;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.shardvault.s3.CopyObjectRequest;
import io.shardvault.s3.CopySource;
import io.shardvault.s3.DeleteOutcome;
import io.shardvault.s3.Etags;
import io.shardvault.s3.MetadataDirective;
import io.shardvault.s3.ObjectContent;
import io.shardvault.s3.ObjectIdentifier;
import io.shardvault.s3.ObjectInfo;
import io.shardvault.s3.ObjectMetadata;
import io.shardvault.s3.ObjectRange;
import io.shardvault.s3.PutObjectRequest;
import io.shardvault.s3.StoredObject;
import io.shardvault.s3.internal.ErrorMapper;
import io.shardvault.s3.internal.HttpDates;
import io.shardvault.s3.internal.S3Error;
import io.shardvault.s3.internal.S3Names;
import io.shardvault.s3.internal.S3Request;
import io.shardvault.s3.internal.UriCodec;
import io.shardvault.s3.internal.body.VerifyingBodySource;
import io.shardvault.s3.internal.xml.XmlElement;
import io.shardvault.s3.internal.xml.XmlWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** PutObject, GetObject, HeadObject, DeleteObject, DeleteObjects, CopyObject. */
final class ObjectOperations {
    private static final int MAX_DELETE_KEYS = 1000;

    private ObjectOperations() {
    }

    static CompletableFuture<Void> putObject(Op op) {
        S3Request r = op.req();
        S3Headers.refuseUnsupportedWriteHeaders(r);
        ObjectMetadata metadata = S3Headers.metadata(r);
        var condition = S3Headers.writeCondition(r);
        var lock = S3Headers.lock(r);
        var acl = AclOperations.fromHeaders(r, op.caller().owner());
        VerifyingBodySource body = op.openBody(true);
        return op.store().putObject(op.caller(), new PutObjectRequest(r.bucket(), r.key(), metadata, body, condition,
                lock, acl)).thenAccept(result -> {
                    if (!body.completed()) {
                        throw S3Error.internal("the store committed before reading the whole body");
                    }
                    op.metrics().bytesIn(result.size());
                    HttpHeaders h = new DefaultHttpHeaders();
                    h.set(HttpHeaderNames.ETAG, S3Headers.quote(result.etag()));
                    S3Headers.setIf(h, "x-amz-version-id", result.versionId());
                    S3Headers.checksumHeaders(h, result.checksum());
                    op.respond(HttpResponseStatus.OK, h);
                });
    }

    static CompletableFuture<Void> getObject(Op op) {
        S3Request r = op.req();
        int part = partNumber(r);
        return op.store().getObject(op.caller(), r.bucket(), r.key(), r.param("versionId"))
                .thenAccept(stored -> answerRead(op, stored.info(), stored, part));
    }

    /** HeadObject; with {@code partNumber} it resolves the version as GetObject does, to learn the part's size. */
    static CompletableFuture<Void> headObject(Op op) {
        S3Request r = op.req();
        int part = partNumber(r);
        if (part > 0) {
            return op.store().getObject(op.caller(), r.bucket(), r.key(), r.param("versionId"))
                    .thenAccept(stored -> answerRead(op, stored.info(), stored, part));
        }
        return op.store().headObject(op.caller(), r.bucket(), r.key(), r.param("versionId"))
                .thenAccept(info -> answerRead(op, info, null, 0));
    }

    /**
     * The {@code partNumber} of a GetObject or HeadObject, 0 when absent: an integer in 1..10000
     * ({@code InvalidArgument}), never together with a Range header ({@code InvalidRequest}), as S3 answers.
     */
    static int partNumber(S3Request r) {
        String p = r.param("partNumber");
        if (p == null) {
            return 0;
        }
        int n;
        try {
            n = Integer.parseInt(p.trim());
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 1 || n > 10_000) {
            throw S3Error.invalidArgument("Part number must be an integer between 1 and 10000, inclusive",
                    "partNumber", p);
        }
        if (r.header(HttpHeaderNames.RANGE) != null) {
            throw S3Error.badRequest("InvalidRequest",
                    "Cannot specify both Range header and partNumber query parameter");
        }
        return n;
    }

    /**
     * Answers a GET or HEAD (HEAD when {@code stored} is null or the method is HEAD). A part read
     * ({@code part > 0}) answers 206 with the part's Content-Range, and {@code x-amz-mp-parts-count} for a
     * multipart object; as for a Range, the object's checksum is not sent with a part of a multipart object
     * (it does not describe those bytes).
     */
    static void answerRead(Op op, ObjectInfo info, StoredObject stored, int part) {
        S3Request r = op.req();
        checkConditions(r, info);
        HttpHeaders h = new DefaultHttpHeaders();
        S3Headers.objectHeaders(h, info, false);
        long size = info.size();
        long offset = 0;
        long length = size;
        HttpResponseStatus status = HttpResponseStatus.OK;
        long[] range = part > 0 ? partRange(stored, info, part) : parseRange(r.header(HttpHeaderNames.RANGE), size);
        if (part > 0 && info.partsCount() > 0) {
            h.set("x-amz-mp-parts-count", info.partsCount());
        }
        if (range != null) {
            offset = range[0];
            length = range[1] - range[0] + 1;
            status = HttpResponseStatus.PARTIAL_CONTENT;
            h.set(HttpHeaderNames.CONTENT_RANGE, "bytes " + range[0] + "-" + range[1] + "/" + size);
        }
        if ((range == null || part > 0 && info.partsCount() == 0) && op.checksumModeEnabled()
                && info.checksum() != null) {
            S3Headers.checksumHeaders(h, info.checksum());
        }
        applyOverrides(r, h);
        h.set(HttpHeaderNames.CONTENT_LENGTH, length);
        if (stored == null || r.method().equals(HttpMethod.HEAD)) {
            op.respond(status, h);
            return;
        }
        ObjectContent content = stored.open(offset, length);
        op.exchange().respondStream(status, h, content);
    }

    /** [first, last] of part {@code part}; null for an empty part (answered whole, 200); 416 when absent. */
    private static long[] partRange(StoredObject stored, ObjectInfo info, int part) {
        Optional<ObjectRange> p;
        try {
            p = stored.part(part);
        } catch (UnsupportedOperationException e) {
            throw S3Error.notImplemented("GetObject by partNumber on a multipart object");
        }
        if (p.isEmpty()) {
            throw new S3Error("InvalidPartNumber", HttpResponseStatus.REQUESTED_RANGE_NOT_SATISFIABLE,
                    "The requested partnumber is not satisfiable")
                    .with("PartNumberRequested", Integer.toString(part))
                    .with("ActualPartCount", Integer.toString(Math.max(1, info.partsCount())));
        }
        ObjectRange range = p.get();
        return range.length() == 0 ? null : new long[] {range.offset(), range.offset() + range.length() - 1};
    }

    private static void checkConditions(S3Request r, ObjectInfo info) {
        String ifMatch = r.header(HttpHeaderNames.IF_MATCH);
        String ifNoneMatch = r.header(HttpHeaderNames.IF_NONE_MATCH);
        Instant ifModifiedSince = HttpDates.parse(r.header(HttpHeaderNames.IF_MODIFIED_SINCE));
        Instant ifUnmodifiedSince = HttpDates.parse(r.header(HttpHeaderNames.IF_UNMODIFIED_SINCE));
        Instant modified = info.lastModified().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        if (ifMatch != null) {
            if (!Etags.matches(ifMatch, info.etag())) {
                throw ErrorMapper.fromCode(io.shardvault.common.ErrorCode.PRECONDITION_FAILED, null);
            }
        } else if (ifUnmodifiedSince != null && modified.isAfter(ifUnmodifiedSince)) {
            throw ErrorMapper.fromCode(io.shardvault.common.ErrorCode.PRECONDITION_FAILED, null);
        }
        if (ifNoneMatch != null) {
            if (Etags.matches(ifNoneMatch, info.etag())) {
                throw notModified(info);
            }
        } else if (ifModifiedSince != null && !modified.isAfter(ifModifiedSince)) {
            throw notModified(info);
        }
    }

    private static S3Error notModified(ObjectInfo info) {
        return new S3Error("NotModified", HttpResponseStatus.NOT_MODIFIED, "Not Modified");
    }

    /** [first, last] of a single satisfiable byte range, null for none or an ignored one. */
    static long[] parseRange(String header, long size) {
        if (header == null) {
            return null;
        }
        String h = header.trim();
        if (!h.startsWith("bytes=") || h.contains(",")) {
            return null;
        }
        String spec = h.substring(6).trim();
        int dash = spec.indexOf('-');
        if (dash < 0) {
            return null;
        }
        try {
            String a = spec.substring(0, dash).trim();
            String b = spec.substring(dash + 1).trim();
            long first;
            long last;
            if (a.isEmpty()) {
                long suffix = Long.parseLong(b);
                if (suffix <= 0) {
                    throw invalidRange(size);
                }
                first = Math.max(0, size - suffix);
                last = size - 1;
            } else {
                first = Long.parseLong(a);
                last = b.isEmpty() ? size - 1 : Math.min(Long.parseLong(b), size - 1);
                if (!b.isEmpty() && Long.parseLong(b) < first) {
                    return null;
                }
            }
            if (first >= size || size == 0) {
                throw invalidRange(size);
            }
            return new long[] {first, last};
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static S3Error invalidRange(long size) {
        return new S3Error("InvalidRange", HttpResponseStatus.REQUESTED_RANGE_NOT_SATISFIABLE,
                "The requested range is not satisfiable").with("ActualObjectSize", Long.toString(size));
    }

    private static void applyOverrides(S3Request r, HttpHeaders h) {
        String[][] overrides = {
            {"response-content-type", HttpHeaderNames.CONTENT_TYPE.toString()},
            {"response-content-language", HttpHeaderNames.CONTENT_LANGUAGE.toString()},
            {"response-expires", HttpHeaderNames.EXPIRES.toString()},
            {"response-cache-control", HttpHeaderNames.CACHE_CONTROL.toString()},
            {"response-content-disposition", HttpHeaderNames.CONTENT_DISPOSITION.toString()},
            {"response-content-encoding", HttpHeaderNames.CONTENT_ENCODING.toString()},
        };
        for (String[] o : overrides) {
            String v = r.param(o[0]);
            if (v != null) {
                h.set(o[1], v);
            }
        }
    }

    static CompletableFuture<Void> deleteObject(Op op) {
        S3Request r = op.req();
        return op.store().deleteObject(op.caller(), r.bucket(), r.key(), r.param("versionId"), bypass(r))
                .thenAccept(result -> {
                    HttpHeaders h = new DefaultHttpHeaders();
                    S3Headers.setIf(h, "x-amz-version-id", result.versionId());
                    if (result.deleteMarker()) {
                        h.set("x-amz-delete-marker", "true");
                    }
                    op.respond(HttpResponseStatus.NO_CONTENT, h);
                });
    }

    static boolean bypass(S3Request r) {
        String v = r.header("x-amz-bypass-governance-retention");
        return v != null && v.equalsIgnoreCase("true");
    }

    static CompletableFuture<Void> deleteObjects(Op op) {
        S3Request r = op.req();
        if (r.header("Content-MD5") == null && !hasChecksumHeader(r)) {
            throw S3Error.badRequest("InvalidRequest",
                    "Missing required header for this request: Content-MD5 or x-amz-checksum-*");
        }
        return op.readXml(true).thenCompose(xml -> {
            if (!xml.name().equals("Delete")) {
                throw S3Error.malformedXml();
            }
            String quietText = xml.childText("Quiet");
            boolean quiet = quietText != null && quietText.trim().equalsIgnoreCase("true");
            List<XmlElement> objects = xml.all("Object");
            if (objects.isEmpty() || objects.size() > MAX_DELETE_KEYS) {
                throw S3Error.malformedXml();
            }
            List<ObjectIdentifier> targets = new ArrayList<>();
            List<String[]> invalid = new ArrayList<>();
            for (XmlElement o : objects) {
                String key = o.childText("Key");
                if (key == null) {
                    throw S3Error.malformedXml();
                }
                String version = o.childText("VersionId");
                version = version == null || version.isBlank() ? null : version.trim();
                try {
                    S3Names.checkKey(key);
                    targets.add(new ObjectIdentifier(key, version));
                } catch (S3Error e) {
                    invalid.add(new String[] {key, version, e.code(), e.getMessage()});
                }
            }
            return op.store().deleteObjects(op.caller(), r.bucket(), targets, bypass(r)).thenAccept(outcomes -> {
                XmlWriter out = XmlWriter.document("DeleteResult");
                for (DeleteOutcome o : outcomes) {
                    if (o.result() != null) {
                        if (!quiet) {
                            out.start("Deleted").element("Key", o.target().key())
                                    .element("VersionId", o.target().versionId());
                            if (o.result().deleteMarker()) {
                                out.element("DeleteMarker", "true");
                                if (o.target().versionId() == null) {
                                    out.element("DeleteMarkerVersionId", o.result().versionId());
                                }
                            }
                            out.end();
                        }
                    } else {
                        S3Error e = ErrorMapper.toS3Error(o.error());
                        out.start("Error").element("Key", o.target().key()).element("VersionId", o.target().versionId())
                                .element("Code", e.code()).element("Message", e.getMessage()).end();
                    }
                }
                for (String[] bad : invalid) {
                    out.start("Error").element("Key", bad[0]).element("VersionId", bad[1]).element("Code", bad[2])
                            .element("Message", bad[3]).end();
                }
                op.respondXml(out, null);
            });
        });
    }

    private static boolean hasChecksumHeader(S3Request r) {
        for (io.shardvault.s3.ChecksumAlgorithm a : io.shardvault.s3.ChecksumAlgorithm.values()) {
            if (r.header(a.headerName()) != null) {
                return true;
            }
        }
        return r.header("x-amz-trailer") != null;
    }

    static CompletableFuture<Void> copyObject(Op op) {
        S3Request r = op.req();
        S3Headers.refuseUnsupportedWriteHeaders(r);
        CopySource source = copySource(r);
        String directiveHeader = r.header("x-amz-metadata-directive");
        MetadataDirective directive;
        if (directiveHeader == null) {
            directive = MetadataDirective.COPY;
        } else {
            try {
                directive = MetadataDirective.valueOf(directiveHeader.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw S3Error.invalidArgument("Unknown metadata directive.", "x-amz-metadata-directive",
                        directiveHeader);
            }
        }
        if (source.bucket().equals(r.bucket()) && source.key().equals(r.key()) && source.versionId() == null
                && directive == MetadataDirective.COPY) {
            throw S3Error.badRequest("InvalidRequest", "This copy request is illegal because it is trying to copy an "
                    + "object to itself without changing the object's metadata, storage class, website redirect "
                    + "location or encryption attributes.");
        }
        ObjectMetadata metadata = directive == MetadataDirective.REPLACE ? S3Headers.metadata(r) : ObjectMetadata.EMPTY;
        CopyObjectRequest request = new CopyObjectRequest(source, r.bucket(), r.key(), directive, metadata,
                S3Headers.writeCondition(r), S3Headers.lock(r), AclOperations.fromHeaders(r, op.caller().owner()));
        return op.store().copyObject(op.caller(), request).thenAccept(result -> {
            HttpHeaders h = new DefaultHttpHeaders();
            S3Headers.setIf(h, "x-amz-version-id", result.result().versionId());
            S3Headers.setIf(h, "x-amz-copy-source-version-id", result.sourceVersionId());
            XmlWriter xml = XmlWriter.document("CopyObjectResult")
                    .element("LastModified", result.result().lastModified())
                    .element("ETag", S3Headers.quote(result.result().etag()));
            S3Headers.checksumXml(xml, result.result().checksum());
            op.respondXml(xml, h);
        });
    }

    /** Parses {@code x-amz-copy-source} and its conditions. */
    static CopySource copySource(S3Request r) {
        String raw = r.header("x-amz-copy-source");
        String versionId = null;
        int q = raw.indexOf('?');
        if (q >= 0) {
            String query = raw.substring(q + 1);
            raw = raw.substring(0, q);
            for (String p : query.split("&")) {
                if (p.startsWith("versionId=")) {
                    versionId = UriCodec.decode(p.substring("versionId=".length()), false);
                }
            }
        }
        String path = UriCodec.decode(raw, false);
        if (path.startsWith("/")) {
            path = path.substring(1);
        }
        int slash = path.indexOf('/');
        if (slash <= 0 || slash == path.length() - 1) {
            throw S3Error.invalidArgument("Copy Source must mention the source bucket and key: sourcebucket/sourcekey",
                    "x-amz-copy-source", r.header("x-amz-copy-source"));
        }
        String bucket = path.substring(0, slash);
        String key = path.substring(slash + 1);
        S3Names.checkBucket(bucket);
        S3Names.checkKey(key);
        String ifMatch = r.header("x-amz-copy-source-if-match");
        String ifNoneMatch = r.header("x-amz-copy-source-if-none-match");
        return new CopySource(bucket, key, versionId, ifMatch, ifNoneMatch,
                HttpDates.parse(r.header("x-amz-copy-source-if-modified-since")),
                HttpDates.parse(r.header("x-amz-copy-source-if-unmodified-since")));
    }
}
