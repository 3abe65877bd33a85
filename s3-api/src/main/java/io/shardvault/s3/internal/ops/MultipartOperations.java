package io.shardvault.s3.internal.ops;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.shardvault.s3.Checksum;
import io.shardvault.s3.ChecksumAlgorithm;
import io.shardvault.s3.ChecksumType;
import io.shardvault.s3.CompleteMultipartUploadRequest;
import io.shardvault.s3.CompletedPart;
import io.shardvault.s3.CreateMultipartUploadRequest;
import io.shardvault.s3.Etags;
import io.shardvault.s3.ListUploadsRequest;
import io.shardvault.s3.PartInfo;
import io.shardvault.s3.UploadInfo;
import io.shardvault.s3.UploadPartCopyRequest;
import io.shardvault.s3.UploadPartRequest;
import io.shardvault.s3.internal.S3Error;
import io.shardvault.s3.internal.S3Request;
import io.shardvault.s3.internal.body.VerifyingBodySource;
import io.shardvault.s3.internal.xml.XmlElement;
import io.shardvault.s3.internal.xml.XmlWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/** The multipart operations. */
final class MultipartOperations {
    private MultipartOperations() {
    }

    static CompletableFuture<Void> create(Op op) {
        S3Request r = op.req();
        S3Headers.refuseUnsupportedWriteHeaders(r);
        String alg = r.header("x-amz-checksum-algorithm");
        ChecksumAlgorithm algorithm = null;
        if (alg != null) {
            algorithm = ChecksumAlgorithm.fromS3Name(alg);
            if (algorithm == null) {
                throw S3Error.invalidArgument("Checksum algorithm provided is unsupported.", "x-amz-checksum-algorithm",
                        alg);
            }
        }
        String typeHeader = r.header("x-amz-checksum-type");
        ChecksumType type = null;
        if (typeHeader != null) {
            try {
                type = ChecksumType.valueOf(typeHeader.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw S3Error.invalidArgument("Invalid checksum type", "x-amz-checksum-type", typeHeader);
            }
            if (algorithm == null) {
                throw S3Error.invalidArgument("x-amz-checksum-type needs x-amz-checksum-algorithm",
                        "x-amz-checksum-type", typeHeader);
            }
        }
        if (algorithm != null && type == null) {
            type = algorithm == ChecksumAlgorithm.CRC64NVME ? ChecksumType.FULL_OBJECT : ChecksumType.COMPOSITE;
        }
        if (algorithm != null && type == ChecksumType.FULL_OBJECT && !algorithm.combinable()) {
            throw S3Error.invalidArgument("The FULL_OBJECT checksum type cannot be used with the "
                    + algorithm.s3Name() + " checksum algorithm.", "x-amz-checksum-type", typeHeader);
        }
        if (algorithm == ChecksumAlgorithm.CRC64NVME && type == ChecksumType.COMPOSITE) {
            throw S3Error.invalidArgument("The COMPOSITE checksum type cannot be used with the CRC64NVME checksum "
                    + "algorithm.", "x-amz-checksum-type", typeHeader);
        }
        CreateMultipartUploadRequest request = new CreateMultipartUploadRequest(r.bucket(), r.key(),
                S3Headers.metadata(r), algorithm, type, S3Headers.lock(r),
                AclOperations.fromHeaders(r, op.caller().owner()));
        return op.store().createMultipartUpload(op.caller(), request).thenAccept(upload -> {
            HttpHeaders h = new DefaultHttpHeaders();
            if (upload.checksumAlgorithm() != null) {
                h.set("x-amz-checksum-algorithm", upload.checksumAlgorithm().s3Name());
                h.set("x-amz-checksum-type", upload.checksumType().name());
            }
            op.respondXml(XmlWriter.document("InitiateMultipartUploadResult").element("Bucket", r.bucket())
                    .element("Key", r.key()).element("UploadId", upload.uploadId()), h);
        });
    }

    static int partNumber(S3Request r) {
        String p = r.param("partNumber");
        String uploadId = r.param("uploadId");
        if (p == null || uploadId == null) {
            throw S3Error.invalidArgument("UploadPart needs both partNumber and uploadId", "partNumber", p);
        }
        try {
            int n = Integer.parseInt(p);
            if (n < 1 || n > 10_000) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw S3Error.invalidArgument("Part number must be an integer between 1 and 10000, inclusive",
                    "partNumber", p);
        }
    }

    static CompletableFuture<Void> uploadPart(Op op) {
        S3Request r = op.req();
        int part = partNumber(r);
        VerifyingBodySource body = op.openBody(false);
        return op.store().uploadPart(op.caller(), new UploadPartRequest(r.bucket(), r.key(), r.param("uploadId"), part,
                body)).thenAccept(info -> {
                    if (!body.completed()) {
                        throw S3Error.internal("the store committed before reading the whole body");
                    }
                    op.metrics().bytesIn(info.size());
                    HttpHeaders h = new DefaultHttpHeaders();
                    h.set(HttpHeaderNames.ETAG, S3Headers.quote(info.etag()));
                    if (info.checksum() != null) {
                        h.set(info.checksum().algorithm().headerName(), info.checksum().value());
                    }
                    op.respond(HttpResponseStatus.OK, h);
                });
    }

    static CompletableFuture<Void> uploadPartCopy(Op op) {
        S3Request r = op.req();
        int part = partNumber(r);
        var source = ObjectOperations.copySource(r);
        long start = -1;
        long end = -1;
        String range = r.header("x-amz-copy-source-range");
        if (range != null) {
            String spec = range.trim();
            int dash = spec.indexOf('-');
            if (!spec.startsWith("bytes=") || dash < 0) {
                throw S3Error.invalidArgument("The x-amz-copy-source-range value must be of the form bytes=first-last",
                        "x-amz-copy-source-range", range);
            }
            try {
                start = Long.parseLong(spec.substring(6, dash).trim());
                end = Long.parseLong(spec.substring(dash + 1).trim());
            } catch (NumberFormatException e) {
                throw S3Error.invalidArgument("The x-amz-copy-source-range value must be of the form "
                        + "bytes=first-last", "x-amz-copy-source-range", range);
            }
            if (start < 0 || end < start) {
                throw S3Error.invalidArgument("The x-amz-copy-source-range value must be of the form "
                        + "bytes=first-last where first and last are the zero-based offsets", "x-amz-copy-source-range",
                        range);
            }
        }
        UploadPartCopyRequest request = new UploadPartCopyRequest(r.bucket(), r.key(), r.param("uploadId"), part,
                source, start, end);
        return op.store().uploadPartCopy(op.caller(), request).thenAccept(info -> {
            XmlWriter xml = XmlWriter.document("CopyPartResult").element("LastModified", info.lastModified())
                    .element("ETag", S3Headers.quote(info.etag()));
            if (info.checksum() != null) {
                xml.element("Checksum" + info.checksum().algorithm().s3Name(), info.checksum().value());
            }
            op.respondXml(xml, null);
        });
    }

    static CompletableFuture<Void> complete(Op op) {
        S3Request r = op.req();
        Checksum fullObject = null;
        for (ChecksumAlgorithm a : ChecksumAlgorithm.values()) {
            String v = r.header(a.headerName());
            if (v != null) {
                String type = r.header("x-amz-checksum-type");
                fullObject = new Checksum(a, v.trim(), type != null && type.equalsIgnoreCase("COMPOSITE")
                        ? ChecksumType.COMPOSITE : ChecksumType.FULL_OBJECT);
            }
        }
        Checksum expected = fullObject;
        var condition = S3Headers.writeCondition(r);
        return op.readXml(true).thenCompose(xml -> {
            if (!xml.name().equals("CompleteMultipartUpload")) {
                throw S3Error.malformedXml();
            }
            List<CompletedPart> parts = new ArrayList<>();
            int last = 0;
            for (XmlElement p : xml.all("Part")) {
                String num = p.childText("PartNumber");
                String etag = p.childText("ETag");
                if (num == null || etag == null) {
                    throw S3Error.malformedXml();
                }
                int n;
                try {
                    n = Integer.parseInt(num.trim());
                } catch (NumberFormatException e) {
                    throw S3Error.malformedXml();
                }
                if (n <= last) {
                    throw io.shardvault.s3.internal.ErrorMapper.fromCode(
                            io.shardvault.common.ErrorCode.INVALID_PART_ORDER, null);
                }
                last = n;
                Checksum c = null;
                for (ChecksumAlgorithm a : ChecksumAlgorithm.values()) {
                    String v = p.childText("Checksum" + a.s3Name());
                    if (v != null && !v.isBlank()) {
                        c = new Checksum(a, v.trim(), ChecksumType.FULL_OBJECT);
                    }
                }
                parts.add(new CompletedPart(n, Etags.unquote(etag), c));
            }
            if (parts.isEmpty()) {
                throw S3Error.malformedXml();
            }
            return op.store().completeMultipartUpload(op.caller(), new CompleteMultipartUploadRequest(r.bucket(),
                    r.key(), r.param("uploadId"), parts, condition, expected));
        }).thenAccept(result -> {
            HttpHeaders h = new DefaultHttpHeaders();
            S3Headers.setIf(h, "x-amz-version-id", result.versionId());
            XmlWriter xml = XmlWriter.document("CompleteMultipartUploadResult")
                    .element("Location", "/" + r.bucket() + "/" + r.key()).element("Bucket", r.bucket())
                    .element("Key", r.key()).element("ETag", S3Headers.quote(result.etag()));
            S3Headers.checksumXml(xml, result.checksum());
            op.respondXml(xml, h);
        });
    }

    static CompletableFuture<Void> abort(Op op) {
        S3Request r = op.req();
        return op.store().abortMultipartUpload(op.caller(), r.bucket(), r.key(), r.param("uploadId"))
                .thenAccept(v -> op.respond(HttpResponseStatus.NO_CONTENT, null));
    }

    static CompletableFuture<Void> listParts(Op op) {
        S3Request r = op.req();
        int maxParts = ListOperations.maxKeys(r, "max-parts");
        int marker = 0;
        String m = r.param("part-number-marker");
        if (m != null) {
            try {
                marker = Integer.parseInt(m.trim());
            } catch (NumberFormatException e) {
                throw S3Error.invalidArgument("Provided part-number-marker not an integer", "part-number-marker", m);
            }
        }
        int markerValue = marker;
        return op.store().listParts(op.caller(), r.bucket(), r.key(), r.param("uploadId"), marker, maxParts)
                .thenAccept(page -> {
                    UploadInfo u = page.upload();
                    XmlWriter xml = XmlWriter.document("ListPartsResult").element("Bucket", r.bucket())
                            .element("Key", r.key()).element("UploadId", u.uploadId());
                    xml.start("Initiator").element("ID", u.owner()).element("DisplayName", u.owner()).end();
                    xml.start("Owner").element("ID", u.owner()).element("DisplayName", u.owner()).end();
                    xml.element("StorageClass", "STANDARD").element("PartNumberMarker", markerValue);
                    if (page.truncated()) {
                        xml.element("NextPartNumberMarker", page.nextPartNumberMarker());
                    }
                    xml.element("MaxParts", maxParts).element("IsTruncated", page.truncated());
                    if (u.checksumAlgorithm() != null) {
                        xml.element("ChecksumAlgorithm", u.checksumAlgorithm().s3Name());
                        xml.element("ChecksumType", u.checksumType().name());
                    }
                    for (PartInfo p : page.parts()) {
                        xml.start("Part").element("PartNumber", p.partNumber())
                                .element("LastModified", p.lastModified()).element("ETag", S3Headers.quote(p.etag()))
                                .element("Size", p.size());
                        if (p.checksum() != null) {
                            xml.element("Checksum" + p.checksum().algorithm().s3Name(), p.checksum().value());
                        }
                        xml.end();
                    }
                    op.respondXml(xml, null);
                });
    }

    static CompletableFuture<Void> listUploads(Op op) {
        S3Request r = op.req();
        boolean url = ListOperations.encodingType(r);
        int max = ListOperations.maxKeys(r, "max-uploads");
        String prefix = r.param("prefix") == null ? "" : r.param("prefix");
        String delimiter = ListOperations.emptyToNull(r.param("delimiter"));
        String keyMarker = ListOperations.emptyToNull(r.param("key-marker"));
        String uploadIdMarker = ListOperations.emptyToNull(r.param("upload-id-marker"));
        return op.store().listMultipartUploads(op.caller(), new ListUploadsRequest(r.bucket(), prefix, delimiter,
                keyMarker, uploadIdMarker, max)).thenAccept(page -> {
                    XmlWriter xml = XmlWriter.document("ListMultipartUploadsResult").element("Bucket", r.bucket())
                            .element("KeyMarker", ListOperations.enc(keyMarker == null ? "" : keyMarker, url))
                            .element("UploadIdMarker", uploadIdMarker == null ? "" : uploadIdMarker);
                    if (page.truncated()) {
                        xml.element("NextKeyMarker", ListOperations.enc(page.nextKeyMarker(), url))
                                .element("NextUploadIdMarker", page.nextUploadIdMarker());
                    }
                    xml.element("Prefix", ListOperations.enc(prefix, url))
                            .element("Delimiter", ListOperations.enc(delimiter, url))
                            .element("MaxUploads", max).element("IsTruncated", page.truncated());
                    if (url) {
                        xml.element("EncodingType", "url");
                    }
                    for (UploadInfo u : page.uploads()) {
                        xml.start("Upload").element("Key", ListOperations.enc(u.key(), url))
                                .element("UploadId", u.uploadId());
                        xml.start("Initiator").element("ID", u.owner()).element("DisplayName", u.owner()).end();
                        xml.start("Owner").element("ID", u.owner()).element("DisplayName", u.owner()).end();
                        xml.element("StorageClass", "STANDARD").element("Initiated", u.initiated());
                        if (u.checksumAlgorithm() != null) {
                            xml.element("ChecksumAlgorithm", u.checksumAlgorithm().s3Name());
                            xml.element("ChecksumType", u.checksumType().name());
                        }
                        xml.end();
                    }
                    for (String p : page.commonPrefixes()) {
                        xml.start("CommonPrefixes").element("Prefix", ListOperations.enc(p, url)).end();
                    }
                    op.respondXml(xml, null);
                });
    }
}
