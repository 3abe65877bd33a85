package io.shardvault.s3.internal.ops;

import io.shardvault.s3.ListObjectsPage;
import io.shardvault.s3.ListObjectsRequest;
import io.shardvault.s3.ListVersionsRequest;
import io.shardvault.s3.ObjectSummary;
import io.shardvault.s3.VersionSummary;
import io.shardvault.s3.VersionsPage;
import io.shardvault.s3.internal.S3Error;
import io.shardvault.s3.internal.S3Request;
import io.shardvault.s3.internal.UriCodec;
import io.shardvault.s3.internal.xml.XmlWriter;
import io.shardvault.s3.sosapi.SosapiListings;
import io.shardvault.s3.sosapi.SosapiObjects;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;

/** ListObjects (v1), ListObjectsV2 and ListObjectVersions. */
final class ListOperations {
    private ListOperations() {
    }

    static CompletableFuture<Void> listV2(Op op) {
        S3Request r = op.req();
        boolean url = encodingType(r);
        int maxKeys = maxKeys(r, "max-keys");
        String token = r.param("continuation-token");
        String startAfter = r.param("start-after");
        // An empty token is no token (botocore sends one when a caller passes ContinuationToken=''); it is echoed.
        String after = token != null && !token.isEmpty() ? decodeToken(token) : startAfter;
        String prefix = r.param("prefix") == null ? "" : r.param("prefix");
        String delimiter = emptyToNull(r.param("delimiter"));
        boolean fetchOwner = "true".equalsIgnoreCase(r.param("fetch-owner"));
        ListObjectsRequest request = new ListObjectsRequest(r.bucket(), prefix, delimiter, after, maxKeys, fetchOwner);
        return withSosapi(op, request, op.store().listObjects(op.caller(), request)).thenAccept(page -> {
                    boolean truncated = truncated(maxKeys, page.truncated()) && page.nextAfter() != null;
                    XmlWriter xml = XmlWriter.document("ListBucketResult");
                    xml.element("Name", r.bucket()).element("Prefix", enc(prefix, url));
                    xml.element("Delimiter", enc(delimiter, url));
                    xml.element("MaxKeys", maxKeys).element("KeyCount", page.objects().size()
                            + page.commonPrefixes().size());
                    xml.element("IsTruncated", truncated);
                    xml.element("ContinuationToken", token);
                    if (truncated) {
                        xml.element("NextContinuationToken", encodeToken(page.nextAfter()));
                    }
                    xml.element("StartAfter", enc(startAfter, url));
                    if (url) {
                        xml.element("EncodingType", "url");
                    }
                    contents(xml, page, url, fetchOwner);
                    op.respondXml(xml, null);
                });
    }

    static CompletableFuture<Void> listV1(Op op) {
        S3Request r = op.req();
        boolean url = encodingType(r);
        int maxKeys = maxKeys(r, "max-keys");
        String marker = r.param("marker");
        String prefix = r.param("prefix") == null ? "" : r.param("prefix");
        String delimiter = emptyToNull(r.param("delimiter"));
        ListObjectsRequest request = new ListObjectsRequest(r.bucket(), prefix, delimiter, emptyToNull(marker),
                maxKeys, true);
        return withSosapi(op, request, op.store().listObjects(op.caller(), request)).thenAccept(page -> {
                    boolean truncated = truncated(maxKeys, page.truncated()) && page.nextAfter() != null;
                    XmlWriter xml = XmlWriter.document("ListBucketResult");
                    xml.element("Name", r.bucket()).element("Prefix", enc(prefix, url))
                            .element("Marker", enc(marker == null ? "" : marker, url));
                    if (truncated) {
                        xml.element("NextMarker", enc(page.nextAfter(), url));
                    }
                    xml.element("MaxKeys", maxKeys).element("Delimiter", enc(delimiter, url))
                            .element("IsTruncated", truncated);
                    if (url) {
                        xml.element("EncodingType", "url");
                    }
                    contents(xml, page, url, true);
                    op.respondXml(xml, null);
                });
    }

    /**
     * ListObjectVersions. A version-id-marker without a key-marker is rejected, as S3 does; the null
     * version is listed and resumed from as {@code "null"}.
     */
    static CompletableFuture<Void> listVersions(Op op) {
        S3Request r = op.req();
        boolean url = encodingType(r);
        int maxKeys = maxKeys(r, "max-keys");
        String keyMarker = emptyToNull(r.param("key-marker"));
        String versionIdMarker = emptyToNull(r.param("version-id-marker"));
        if (keyMarker == null && versionIdMarker != null) {
            throw S3Error.invalidArgument("A version-id marker cannot be specified without a key marker.",
                    "version-id-marker", versionIdMarker);
        }
        String prefix = r.param("prefix") == null ? "" : r.param("prefix");
        String delimiter = emptyToNull(r.param("delimiter"));
        ListVersionsRequest request = new ListVersionsRequest(r.bucket(), prefix, delimiter, keyMarker,
                versionIdMarker, maxKeys);
        return withSosapi(op, request, op.store().listObjectVersions(op.caller(), request)).thenAccept(page -> {
                    boolean truncated = truncated(maxKeys, page.truncated());
                    XmlWriter xml = XmlWriter.document("ListVersionsResult");
                    xml.element("Name", r.bucket()).element("Prefix", enc(prefix, url))
                            .element("KeyMarker", enc(keyMarker == null ? "" : keyMarker, url))
                            .element("VersionIdMarker", versionIdMarker == null ? "" : versionIdMarker);
                    if (truncated) {
                        xml.element("NextKeyMarker", enc(page.nextKeyMarker(), url));
                        xml.element("NextVersionIdMarker", page.nextVersionIdMarker());
                    }
                    xml.element("MaxKeys", maxKeys).element("Delimiter", enc(delimiter, url))
                            .element("IsTruncated", truncated);
                    if (url) {
                        xml.element("EncodingType", "url");
                    }
                    // S3 interleaves Version and DeleteMarker elements in key order; clients read both lists.
                    for (VersionSummary v : page.versions()) {
                        xml.start(v.deleteMarker() ? "DeleteMarker" : "Version").element("Key", enc(v.key(), url))
                                .element("VersionId", v.versionId()).element("IsLatest", v.latest())
                                .element("LastModified", v.lastModified());
                        if (!v.deleteMarker()) {
                            xml.element("ETag", S3Headers.quote(v.etag())).element("Size", v.size())
                                    .element("StorageClass", "STANDARD");
                        }
                        if (v.owner() != null) {
                            xml.start("Owner").element("ID", v.owner()).element("DisplayName", v.owner()).end();
                        }
                        xml.end();
                    }
                    for (String p : page.commonPrefixes()) {
                        xml.start("CommonPrefixes").element("Prefix", enc(p, url)).end();
                    }
                    op.respondXml(xml, null);
                });
    }

    /**
     * SOSAPI's virtual objects join the page when the request covers them and comes from a client
     * SOSAPI is for ({@code s3.sosapi.listingClients}); every other client gets the store's page.
     */
    private static CompletableFuture<ListObjectsPage> withSosapi(Op op, ListObjectsRequest request,
                                                                 CompletableFuture<ListObjectsPage> page) {
        if (!op.config().sosapi().listsFor(op.req().header("User-Agent"))) {
            return page;
        }
        SosapiObjects sosapi = new SosapiObjects(op.config().sosapi(), op.store(), op.clock());
        return page.thenCompose(p -> SosapiListings.merge(sosapi, op.caller(), request, p));
    }

    private static CompletableFuture<VersionsPage> withSosapi(Op op, ListVersionsRequest request,
                                                              CompletableFuture<VersionsPage> page) {
        if (!op.config().sosapi().listsFor(op.req().header("User-Agent"))) {
            return page;
        }
        SosapiObjects sosapi = new SosapiObjects(op.config().sosapi(), op.store(), op.clock());
        return page.thenCompose(p -> SosapiListings.merge(sosapi, op.caller(), request, p));
    }

    private static void contents(XmlWriter xml, ListObjectsPage page, boolean url, boolean owner) {
        for (ObjectSummary o : page.objects()) {
            xml.start("Contents").element("Key", enc(o.key(), url)).element("LastModified", o.lastModified())
                    .element("ETag", S3Headers.quote(o.etag())).element("Size", o.size());
            if (owner && o.owner() != null) {
                xml.start("Owner").element("ID", o.owner()).element("DisplayName", o.owner()).end();
            }
            if (o.checksumAlgorithm() != null) {
                xml.element("ChecksumAlgorithm", o.checksumAlgorithm().s3Name());
                if (o.checksumType() != null) {
                    xml.element("ChecksumType", o.checksumType().name());
                }
            }
            xml.element("StorageClass", "STANDARD").end();
        }
        for (String p : page.commonPrefixes()) {
            xml.start("CommonPrefixes").element("Prefix", enc(p, url)).end();
        }
    }

    /**
     * Whether a page is truncated as S3 says it: a listing with max-keys=0 asks for nothing and is answered
     * with an empty page that is not truncated (no continuation token, no next marker), whatever the store
     * reports.
     */
    static boolean truncated(int maxKeys, boolean storeTruncated) {
        return maxKeys > 0 && storeTruncated;
    }

    static boolean encodingType(S3Request r) {
        String e = r.param("encoding-type");
        if (e == null) {
            return false;
        }
        if (!e.equals("url")) {
            throw S3Error.invalidArgument("Invalid Encoding Method specified in Request", "encoding-type", e);
        }
        return true;
    }

    static int maxKeys(S3Request r, String name) {
        String v = r.param(name);
        if (v == null) {
            return 1000;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n < 0) {
                throw new NumberFormatException();
            }
            return Math.min(n, 1000);
        } catch (NumberFormatException e) {
            throw S3Error.invalidArgument("Provided " + name + " not an integer or within integer range", name, v);
        }
    }

    static String enc(String s, boolean url) {
        if (s == null) {
            return null;
        }
        return url ? UriCodec.encode(s, true) : s;
    }

    static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    static String encodeToken(String after) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(("1:" + after).getBytes(StandardCharsets.UTF_8));
    }

    static String decodeToken(String token) {
        try {
            String s = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
            if (!s.startsWith("1:")) {
                throw new IllegalArgumentException("version");
            }
            return s.substring(2);
        } catch (IllegalArgumentException e) {
            throw S3Error.invalidArgument("The continuation token provided is incorrect", "continuation-token", token);
        }
    }
}
