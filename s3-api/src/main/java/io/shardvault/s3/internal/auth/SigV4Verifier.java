package io.shardvault.s3.internal.auth;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.shardvault.s3.Credential;
import io.shardvault.s3.CredentialStore;
import io.shardvault.s3.internal.HeaderText;
import io.shardvault.s3.internal.HttpDates;
import io.shardvault.s3.internal.S3Error;
import io.shardvault.s3.internal.S3Request;
import io.shardvault.s3.internal.UriCodec;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * Verifies the SigV4 signature of a request, from its Authorization header or its presigned-URL
 * query, against the key from the {@link CredentialStore}; hands SigV2 requests to the
 * {@link SigV2Verifier} when it is enabled (400 InvalidRequest when not). A request with no credentials
 * at all is anonymous ({@link SigningContext#ANONYMOUS}): the operations decide what it may do (issue #17).
 * Refuses expired or too-long presigned URLs, and timestamps more than the allowed skew from the server's
 * clock. Thread-safe.
 */
public final class SigV4Verifier {
    static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    /** x-amz-* headers clients add without signing them. */
    private static final java.util.Set<String> UNSIGNED_AMZ_HEADERS = java.util.Set.of("x-amz-user-agent");

    private final AccessKeys keys;
    private final String region;
    private final Duration maxExpiry;
    private final SigV2Verifier sigV2;

    /**
     * @param sigV2 the verifier of SigV2 requests, or null to refuse them
     */
    public SigV4Verifier(AccessKeys keys, String region, Duration maxExpiry, SigV2Verifier sigV2) {
        this.keys = keys;
        this.region = region;
        this.maxExpiry = maxExpiry;
        this.sigV2 = sigV2;
    }

    /** Completes with the signing context, or fails with the S3 error to answer. */
    public CompletableFuture<SigningContext> verify(S3Request req) {
        try {
            String authz = req.header(HttpHeaderNames.AUTHORIZATION);
            Parsed parsed;
            if (authz != null && authz.startsWith("AWS ")) {
                return sigV2().verifyHeader(req, authz);
            }
            if (authz != null) {
                parsed = parseHeader(req, authz);
            } else if (req.hasParam("X-Amz-Signature") || req.hasParam("X-Amz-Algorithm")) {
                parsed = parsePresigned(req);
            } else if (req.hasParam("Signature") && req.hasParam("AWSAccessKeyId")) {
                return sigV2().verifyPresigned(req);
            } else {
                return CompletableFuture.completedFuture(SigningContext.ANONYMOUS);
            }
            return keys.find(parsed.accessKeyId).thenApply(credential -> check(req, parsed, credential));
        } catch (S3Error e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private SigV2Verifier sigV2() {
        if (sigV2 == null) {
            throw unsupportedMechanism();
        }
        return sigV2;
    }

    private SigningContext check(S3Request req, Parsed p, Credential credential) {
        byte[] key = SigV4.signingKey(credential.secretKey(), p.date, p.region, "s3");
        String canonicalRequest = canonicalRequest(req, p, true);
        String expected = SigV4.sign(key, stringToSign(p, canonicalRequest));
        if (!SigV4.equalSignatures(expected, p.signature)) {
            // Clients differ in how they escape the path; accept the path exactly as sent too.
            String raw = canonicalRequest(req, p, false);
            if (raw.equals(canonicalRequest) || !SigV4.equalSignatures(SigV4.sign(key, stringToSign(p, raw)),
                    p.signature)) {
                throw new S3Error("SignatureDoesNotMatch", HttpResponseStatus.FORBIDDEN,
                        "The request signature we calculated does not match the signature you provided. "
                                + "Check your key and signing method.")
                        .with("AWSAccessKeyId", p.accessKeyId).with("StringToSign", stringToSign(p, canonicalRequest))
                        .with("SignatureProvided", p.signature).with("CanonicalRequest", canonicalRequest);
            }
        }
        return new SigningContext(credential, key, p.amzDate, p.scope(), p.signature, p.presigned);
    }

    private static String stringToSign(Parsed p, String canonicalRequest) {
        return SigV4.ALGORITHM + "\n" + p.amzDate + "\n" + p.scope() + "\n" + SigV4.sha256Hex(canonicalRequest);
    }

    private static String canonicalRequest(S3Request req, Parsed p, boolean reencodePath) {
        StringBuilder sb = new StringBuilder(512);
        sb.append(req.method().name()).append('\n');
        sb.append(reencodePath ? UriCodec.encode(UriCodec.decode(req.rawPath(), false), true) : req.rawPath())
                .append('\n');
        List<String[]> params = new ArrayList<>();
        for (Map.Entry<String, String> e : req.query()) {
            if (p.presigned && e.getKey().equals("X-Amz-Signature")) {
                continue;
            }
            params.add(new String[] {UriCodec.encode(e.getKey(), false), UriCodec.encode(e.getValue(), false)});
        }
        params.sort((a, b) -> a[0].equals(b[0]) ? a[1].compareTo(b[1]) : a[0].compareTo(b[0]));
        for (int i = 0; i < params.size(); i++) {
            if (i > 0) {
                sb.append('&');
            }
            sb.append(params.get(i)[0]).append('=').append(params.get(i)[1]);
        }
        sb.append('\n');
        for (String name : p.signedHeaders) {
            List<String> values = req.headers().getAll(name);
            sb.append(name).append(':');
            for (int i = 0; i < values.size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                // The value the client hashed: its UTF-8 bytes, whatever charset carried it.
                sb.append(HeaderText.decode(values.get(i)).trim().replaceAll(" +", " "));
            }
            sb.append('\n');
        }
        sb.append('\n').append(String.join(";", p.signedHeaders)).append('\n');
        sb.append(p.payloadHash);
        return sb.toString();
    }

    private Parsed parseHeader(S3Request req, String authz) {
        if (authz.startsWith("AWS4-ECDSA-P256-SHA256")) {
            throw new S3Error("NotImplemented", HttpResponseStatus.NOT_IMPLEMENTED, "SigV4a is not implemented.");
        }
        if (!authz.startsWith(SigV4.ALGORITHM + " ")) {
            throw malformed("Unsupported authorization type");
        }
        Map<String, String> parts = new HashMap<>();
        for (String part : authz.substring(SigV4.ALGORITHM.length() + 1).split(",")) {
            String t = part.trim();
            int eq = t.indexOf('=');
            if (eq > 0) {
                parts.put(t.substring(0, eq), t.substring(eq + 1));
            }
        }
        String credential = parts.get("Credential");
        String signedHeaders = parts.get("SignedHeaders");
        String signature = parts.get("Signature");
        if (credential == null || signedHeaders == null || signature == null) {
            throw malformed("The authorization header is malformed; missing Credential, SignedHeaders or Signature.");
        }
        String amzDate = req.header("x-amz-date");
        if (amzDate == null) {
            String date = req.header(HttpHeaderNames.DATE);
            if (date == null) {
                throw S3Error.accessDenied("AWS authentication requires a valid Date or x-amz-date header");
            }
            Instant parsed = HttpDates.parse(date);
            if (parsed == null) {
                throw S3Error.accessDenied("AWS authentication requires a valid Date or x-amz-date header");
            }
            amzDate = AMZ_DATE.format(parsed);
        }
        String payloadHash = req.header("x-amz-content-sha256");
        if (payloadHash == null) {
            throw S3Error.badRequest("InvalidRequest", "Missing required header for this request: x-amz-content-sha256");
        }
        Parsed p = parseCommon(credential, amzDate, signedHeaders, signature, payloadHash, false);
        keys.checkSkew(p.instant, amzDate);
        for (String name : req.headers().names()) {
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.startsWith("x-amz-") && !p.signedHeaders.contains(lower) && !UNSIGNED_AMZ_HEADERS.contains(lower)) {
                throw S3Error.accessDenied("There were headers present in the request which were not signed")
                        .with("HeadersNotSigned", lower);
            }
        }
        return p;
    }

    private Parsed parsePresigned(S3Request req) {
        String algorithm = req.param("X-Amz-Algorithm");
        String credential = req.param("X-Amz-Credential");
        String amzDate = req.param("X-Amz-Date");
        String expires = req.param("X-Amz-Expires");
        String signedHeaders = req.param("X-Amz-SignedHeaders");
        String signature = req.param("X-Amz-Signature");
        if (!SigV4.ALGORITHM.equals(algorithm)) {
            throw queryError("X-Amz-Algorithm only supports \"AWS4-HMAC-SHA256\"");
        }
        if (credential == null || amzDate == null || expires == null || signedHeaders == null || signature == null) {
            throw queryError("Query-string authentication version 4 requires the X-Amz-Algorithm, "
                    + "X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.");
        }
        if (req.hasParam("X-Amz-Security-Token")) {
            throw S3Error.notImplemented("session tokens (X-Amz-Security-Token)");
        }
        long expirySeconds;
        try {
            expirySeconds = Long.parseLong(expires);
        } catch (NumberFormatException e) {
            throw queryError("X-Amz-Expires should be a number");
        }
        if (expirySeconds < 0) {
            throw queryError("X-Amz-Expires must be non-negative");
        }
        if (expirySeconds > maxExpiry.toSeconds()) {
            throw queryError("X-Amz-Expires must be less than a week (in seconds) that is 604800");
        }
        String payloadHash = req.param("X-Amz-Content-Sha256");
        if (payloadHash == null) {
            payloadHash = "UNSIGNED-PAYLOAD";
        }
        Parsed p = parseCommon(credential, amzDate, signedHeaders, signature, payloadHash, true);
        Instant now = keys.clock().instant();
        Instant expiry = p.instant.plusSeconds(expirySeconds);
        if (now.isAfter(expiry)) {
            throw S3Error.accessDenied("Request has expired").with("X-Amz-Expires", expires)
                    .with("Expires", expiry.toString()).with("ServerTime", now.toString());
        }
        if (p.instant.isAfter(now.plus(keys.maxSkew()))) {
            throw S3Error.accessDenied("Request is not valid yet");
        }
        return p;
    }

    private Parsed parseCommon(String credential, String amzDate, String signedHeaders, String signature,
                               String payloadHash, boolean presigned) {
        String[] c = credential.split("/");
        if (c.length != 5 || c[0].isEmpty()) {
            throw malformed("The Credential is mal-formed; expecting \"<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request\".");
        }
        Instant instant;
        try {
            instant = LocalDateTime.parse(amzDate, AMZ_DATE)
                    .toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw presigned ? queryError("X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\"")
                    : S3Error.accessDenied("AWS authentication requires a valid Date or x-amz-date header");
        }
        if (!c[1].equals(amzDate.substring(0, 8))) {
            throw malformed("The authorization header is malformed; Invalid credential date. Date is not the same as "
                    + "X-Amz-Date: \"" + c[1] + "\".");
        }
        if (!c[2].equals(region)) {
            throw malformed("The authorization header is malformed; the region '" + c[2]
                    + "' is wrong; expecting '" + region + "'").with("Region", region);
        }
        if (!c[3].equals("s3") || !c[4].equals("aws4_request")) {
            throw malformed("The authorization header is malformed; incorrect service or terminator in the credential.");
        }
        TreeSet<String> headers = new TreeSet<>();
        for (String h : signedHeaders.split(";")) {
            if (!h.isEmpty()) {
                headers.add(h.toLowerCase(Locale.ROOT));
            }
        }
        if (!headers.contains("host")) {
            throw presigned ? queryError("X-Amz-SignedHeaders must contain host")
                    : malformed("The authorization header is malformed; SignedHeaders must contain host.");
        }
        if (!signature.matches("[0-9a-f]{64}")) {
            throw new S3Error("SignatureDoesNotMatch", HttpResponseStatus.FORBIDDEN,
                    "The request signature we calculated does not match the signature you provided.");
        }
        return new Parsed(c[0], c[1], c[2], amzDate, instant, List.copyOf(headers), signature, payloadHash, presigned);
    }

    private static S3Error malformed(String message) {
        return S3Error.badRequest("AuthorizationHeaderMalformed", message);
    }

    private static S3Error queryError(String message) {
        return S3Error.badRequest("AuthorizationQueryParametersError", message);
    }

    static S3Error unsupportedMechanism() {
        return S3Error.badRequest("InvalidRequest",
                "The authorization mechanism you have provided is not supported. Please use AWS4-HMAC-SHA256.");
    }

    private record Parsed(String accessKeyId, String date, String region, String amzDate, Instant instant,
                          List<String> signedHeaders, String signature, String payloadHash, boolean presigned) {
        String scope() {
            return date + "/" + region + "/s3/aws4_request";
        }
    }
}
