package io.shardvault.s3.internal.ops;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.shardvault.s3.Caller;
import io.shardvault.s3.ChecksumAlgorithm;
import io.shardvault.s3.ObjectStore;
import io.shardvault.s3.S3ServerConfig;
import io.shardvault.s3.internal.Exchange;
import io.shardvault.s3.internal.S3Error;
import io.shardvault.s3.internal.S3Metrics;
import io.shardvault.s3.internal.S3Request;
import io.shardvault.s3.internal.auth.SigV4;
import io.shardvault.s3.internal.auth.SigningContext;
import io.shardvault.s3.internal.body.AwsChunkedDecoder;
import io.shardvault.s3.internal.body.VerifyingBodySource;
import io.shardvault.s3.internal.xml.XmlElement;
import io.shardvault.s3.internal.xml.XmlReader;
import io.shardvault.s3.internal.xml.XmlWriter;
import java.io.ByteArrayOutputStream;
import java.time.Clock;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * One authenticated request on its way through an operation: the request, the caller, the store,
 * and the helpers every operation shares (opening the body with its checks, reading an XML body,
 * answering). Used by one operation at a time.
 */
public final class Op {
    /** S3's largest single PUT. */
    static final long MAX_PUT_BYTES = 5L << 30;

    private final Exchange exchange;
    private final S3Request req;
    private final SigningContext signing;
    private final Caller caller;
    private final ObjectStore store;
    private final S3ServerConfig config;
    private final Clock clock;
    private final Executor executor;
    private final S3Metrics metrics;

    public Op(Exchange exchange, S3Request req, SigningContext signing, Caller caller, ObjectStore store,
              S3ServerConfig config, Clock clock, Executor executor, S3Metrics metrics) {
        this.exchange = exchange;
        this.req = req;
        this.signing = signing;
        this.caller = caller;
        this.store = store;
        this.config = config;
        this.clock = clock;
        this.executor = executor;
        this.metrics = metrics;
    }

    S3Request req() {
        return req;
    }

    Caller caller() {
        return caller;
    }

    ObjectStore store() {
        return store;
    }

    S3ServerConfig config() {
        return config;
    }

    Clock clock() {
        return clock;
    }

    Executor executor() {
        return executor;
    }

    S3Metrics metrics() {
        return metrics;
    }

    Exchange exchange() {
        return exchange;
    }

    void respond(HttpResponseStatus status, HttpHeaders headers) {
        exchange.respond(status, headers, null);
    }

    void respondXml(XmlWriter xml, HttpHeaders headers) {
        HttpHeaders h = headers == null ? new DefaultHttpHeaders() : headers;
        h.set(HttpHeaderNames.CONTENT_TYPE, "application/xml");
        exchange.respond(HttpResponseStatus.OK, h, xml.toBytes());
    }

    /**
     * Opens the request body with every check its headers declare.
     *
     * @param computeDefault compute CRC64NVME when the client named no checksum (as S3 does for PUTs)
     */
    VerifyingBodySource openBody(boolean computeDefault) {
        String sha = req.header("x-amz-content-sha256");
        if (sha == null) {
            // Presigned URLs and SigV2 sign no payload; SigV4 header-signed requests always carry the header.
            sha = "UNSIGNED-PAYLOAD";
        }
        if (signing.anonymous() && sha.startsWith("STREAMING-AWS4-")) {
            throw S3Error.accessDenied("A signed streaming payload needs a signed request.");
        }
        if (sha.startsWith("STREAMING-AWS4-HMAC-SHA256-") && !signing.chainsChunks()) {
            throw S3Error.badRequest("InvalidRequest", "Signed aws-chunked bodies (" + sha
                    + ") need a request signed with AWS4-HMAC-SHA256.");
        }
        AwsChunkedDecoder decoder = null;
        String payloadHash = null;
        boolean chunked = true;
        switch (sha) {
            case "STREAMING-AWS4-HMAC-SHA256-PAYLOAD" -> decoder = new AwsChunkedDecoder(signing, false);
            case "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER" -> decoder = new AwsChunkedDecoder(signing, true);
            case "STREAMING-UNSIGNED-PAYLOAD-TRAILER" -> decoder = new AwsChunkedDecoder(null, true);
            case "UNSIGNED-PAYLOAD" -> chunked = false;
            default -> {
                if (sha.startsWith("STREAMING-AWS4-ECDSA")) {
                    throw S3Error.notImplemented("SigV4a streaming payloads");
                }
                if (!sha.matches("[0-9a-f]{64}")) {
                    throw S3Error.badRequest("InvalidArgument", "x-amz-content-sha256 must be UNSIGNED-PAYLOAD, "
                            + "STREAMING-* or a SHA-256 hex digest").with("ArgumentName", "x-amz-content-sha256")
                            .with("ArgumentValue", sha);
                }
                chunked = false;
                payloadHash = sha;
            }
        }
        metrics.payload(payloadHash != null ? "SIGNED" : sha);
        long declared;
        if (chunked) {
            String decodedLength = req.header("x-amz-decoded-content-length");
            if (decodedLength == null) {
                throw new S3Error("MissingContentLength", HttpResponseStatus.LENGTH_REQUIRED,
                        "You must provide the x-amz-decoded-content-length HTTP header.");
            }
            declared = parseLength(decodedLength);
        } else {
            String cl = req.header(HttpHeaderNames.CONTENT_LENGTH);
            if (cl != null) {
                declared = parseLength(cl);
            } else if (req.headers().contains(HttpHeaderNames.TRANSFER_ENCODING)) {
                declared = -1;
            } else {
                declared = 0;
            }
        }
        if (declared > MAX_PUT_BYTES) {
            throw S3Error.entityTooLarge(MAX_PUT_BYTES);
        }
        String md5 = req.header("Content-MD5");
        if (md5 != null) {
            try {
                if (Base64.getDecoder().decode(md5.trim()).length != 16) {
                    throw new IllegalArgumentException("not 16 bytes");
                }
            } catch (IllegalArgumentException e) {
                throw S3Error.badRequest("InvalidDigest", "The Content-MD5 you specified was invalid.");
            }
        }
        ChecksumAlgorithm algorithm = null;
        String headerValue = null;
        boolean inTrailer = false;
        String trailer = req.header("x-amz-trailer");
        if (trailer != null) {
            String t = trailer.trim().toLowerCase(Locale.ROOT);
            for (ChecksumAlgorithm a : ChecksumAlgorithm.values()) {
                if (a.headerName().equals(t)) {
                    algorithm = a;
                }
            }
            if (algorithm == null) {
                throw S3Error.badRequest("InvalidRequest", "Unsupported x-amz-trailer: " + trailer);
            }
            if (decoder == null) {
                throw S3Error.badRequest("InvalidRequest", "x-amz-trailer needs an aws-chunked STREAMING-*-TRAILER body");
            }
            inTrailer = true;
        }
        for (ChecksumAlgorithm a : ChecksumAlgorithm.values()) {
            String v = req.header(a.headerName());
            if (v != null) {
                if (algorithm != null) {
                    throw S3Error.badRequest("InvalidRequest", "Expecting a single x-amz-checksum- header. "
                            + "Multiple checksum Types are not allowed.");
                }
                algorithm = a;
                headerValue = v;
            }
        }
        if (algorithm == null) {
            String named = req.header("x-amz-sdk-checksum-algorithm");
            if (named == null) {
                named = req.header("x-amz-checksum-algorithm");
            }
            if (named != null) {
                algorithm = ChecksumAlgorithm.fromS3Name(named);
                if (algorithm == null) {
                    throw S3Error.invalidArgument("Invalid checksum algorithm", "x-amz-checksum-algorithm", named);
                }
            }
        }
        VerifyingBodySource.Expectations expect = new VerifyingBodySource.Expectations(declared, MAX_PUT_BYTES, md5,
                algorithm, headerValue, inTrailer, payloadHash, computeDefault);
        return new VerifyingBodySource(exchange.rawBody(), decoder, expect);
    }

    private static long parseLength(String value) {
        try {
            long n = Long.parseLong(value.trim());
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw S3Error.badRequest("InvalidArgument", "Invalid content length: " + value);
        }
    }

    /**
     * Reads a small XML body whole (bounded by {@code maxXmlBytes}) and parses it; completes with
     * null when the body is empty and not required.
     */
    CompletableFuture<XmlElement> readXml(boolean required) {
        String cl = req.header(HttpHeaderNames.CONTENT_LENGTH);
        String decoded = req.header("x-amz-decoded-content-length");
        long declared = decoded != null ? parseLength(decoded) : cl != null ? parseLength(cl) : -1;
        if (declared > config.maxXmlBytes()) {
            throw S3Error.badRequest("MaxMessageLengthExceeded", "Your request was too big.");
        }
        if (declared == 0 || (declared < 0 && !req.headers().contains(HttpHeaderNames.TRANSFER_ENCODING))) {
            if (required) {
                throw S3Error.malformedXml();
            }
            return CompletableFuture.completedFuture(null);
        }
        VerifyingBodySource body = openBody(false);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CompletableFuture<XmlElement> result = new CompletableFuture<>();
        readLoop(body, out, result, required);
        return result;
    }

    private void readLoop(VerifyingBodySource body, ByteArrayOutputStream out, CompletableFuture<XmlElement> result,
                          boolean required) {
        body.read().whenComplete((buf, err) -> {
            if (err != null) {
                result.completeExceptionally(err);
                return;
            }
            if (buf == null) {
                byte[] bytes = out.toByteArray();
                if (bytes.length == 0) {
                    if (required) {
                        result.completeExceptionally(S3Error.malformedXml());
                    } else {
                        result.complete(null);
                    }
                    return;
                }
                try {
                    result.complete(XmlReader.parse(bytes));
                } catch (XmlReader.MalformedXmlException e) {
                    result.completeExceptionally(S3Error.malformedXml());
                }
                return;
            }
            try {
                if (out.size() + buf.readableBytes() > config.maxXmlBytes()) {
                    body.discard();
                    result.completeExceptionally(S3Error.badRequest("MaxMessageLengthExceeded",
                            "Your request was too big."));
                    return;
                }
                byte[] chunk = new byte[buf.readableBytes()];
                buf.readBytes(chunk);
                out.write(chunk, 0, chunk.length);
            } finally {
                buf.release();
            }
            readLoop(body, out, result, required);
        });
    }

    /** Whether the request asked for checksums back. */
    boolean checksumModeEnabled() {
        String mode = req.header("x-amz-checksum-mode");
        return mode != null && mode.equalsIgnoreCase("ENABLED");
    }

    static String emptySha() {
        return SigV4.EMPTY_SHA256;
    }

    static void putAll(HttpHeaders h, Map<String, String> values) {
        values.forEach(h::set);
    }

    static void releaseQuietly(ByteBuf b) {
        if (b != null) {
            b.release();
        }
    }
}
