package io.shardvault.s3.internal.auth;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.shardvault.s3.Credential;
import io.shardvault.s3.internal.HeaderText;
import io.shardvault.s3.internal.HttpDates;
import io.shardvault.s3.internal.S3Error;
import io.shardvault.s3.internal.S3Request;
import io.shardvault.s3.internal.UriCodec;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Verifies AWS Signature Version 2 (the "REST authentication" of S3's original API): an
 * {@code Authorization: AWS AKID:signature} header, or a presigned URL's {@code AWSAccessKeyId},
 * {@code Signature} and {@code Expires} parameters. The signature is
 * {@code base64(HMAC-SHA1(secret, StringToSign))} over
 *
 * <pre>
 *   Method \n Content-MD5 \n Content-Type \n Date-or-Expires \n CanonicalizedAmzHeaders CanonicalizedResource
 * </pre>
 *
 * where the date is empty when an {@code x-amz-date} header is present, the amz headers are the
 * {@code x-amz-*} headers lower-cased and sorted ({@code name:v1,v2\n}), and the resource is the path
 * as sent (after {@code /bucket} for virtual-host addressing) with the signed sub-resources
 * ({@link #SUB_RESOURCES}) sorted after a {@code ?}. A presigned URL may carry Content-Type,
 * Content-MD5 and {@code x-amz-*} values as query parameters (botocore moves them there). The body
 * is not signed (as with UNSIGNED-PAYLOAD); its Content-MD5 is still checked when sent. Header-signed
 * requests must be dated within the allowed clock skew; presigned ones must not be past Expires
 * (epoch seconds). Thread-safe.
 */
public final class SigV2Verifier {
    /**
     * The query parameters SigV2 signs as part of the resource: AWS's list (RESTAuthentication), the
     * response-* overrides, and the later sub-resources botocore's HmacV1Auth signs.
     */
    static final Set<String> SUB_RESOURCES = Set.of("accelerate", "acl", "analytics", "cors", "defaultObjectAcl",
            "delete", "inventory", "legal-hold", "lifecycle", "location", "logging", "metrics", "notification",
            "object-lock", "partNumber", "policy", "replication", "requestPayment", "response-cache-control",
            "response-content-disposition", "response-content-encoding", "response-content-language",
            "response-content-type", "response-expires", "restore", "retention", "select", "select-type",
            "storageClass", "tagging", "torrent", "uploadId", "uploads", "versionId", "versioning", "versions",
            "website");
    /** {@link #SUB_RESOURCES} as botocore's HmacV1Auth signs them. */
    private static final Set<String> BOTOCORE_SUB_RESOURCES = SUB_RESOURCES.stream()
            .filter(r -> !r.equals("retention") && !r.equals("legal-hold")).collect(Collectors.toUnmodifiableSet());

    private final AccessKeys keys;

    public SigV2Verifier(AccessKeys keys) {
        this.keys = keys;
    }

    /** Verifies an {@code Authorization: AWS AKID:signature} request. */
    CompletableFuture<SigningContext> verifyHeader(S3Request req, String authz) {
        String credentials = authz.substring("AWS ".length()).trim();
        int colon = credentials.lastIndexOf(':');
        if (colon <= 0 || colon == credentials.length() - 1) {
            throw S3Error.invalidArgument("AWS authorization header is invalid.  Expected AwsAccessKeyId:signature",
                    "Authorization", null);
        }
        String accessKeyId = credentials.substring(0, colon);
        String signature = credentials.substring(colon + 1);
        String amzDate = req.header("x-amz-date");
        String date = amzDate != null ? amzDate : req.header(HttpHeaderNames.DATE);
        if (date == null) {
            throw S3Error.accessDenied("AWS authentication requires a valid Date or x-amz-date header");
        }
        keys.checkSkew(parseDate(date), date);
        String signedDate = amzDate != null ? "" : date;
        return keys.find(accessKeyId).thenApply(c -> check(c, req, signedDate, List.of(), signature, false));
    }

    /** Verifies a presigned URL's {@code AWSAccessKeyId}, {@code Signature} and {@code Expires}. */
    CompletableFuture<SigningContext> verifyPresigned(S3Request req) {
        List<String[]> params = rawParams(req.rawQuery());
        String accessKeyId = first(params, "AWSAccessKeyId");
        String signature = first(params, "Signature");
        String expires = first(params, "Expires");
        if (accessKeyId == null || signature == null || expires == null) {
            throw S3Error.accessDenied(
                    "Query-string authentication requires the Signature, Expires and AWSAccessKeyId parameters");
        }
        long expiresEpoch;
        try {
            expiresEpoch = Long.parseLong(expires);
        } catch (NumberFormatException e) {
            throw S3Error.accessDenied("Invalid date (should be seconds since epoch): " + expires);
        }
        Instant now = keys.clock().instant();
        if (now.getEpochSecond() > expiresEpoch) {
            throw S3Error.accessDenied("Request has expired").with("Expires", Instant.ofEpochSecond(expiresEpoch)
                    .toString()).with("ServerTime", now.toString());
        }
        return keys.find(accessKeyId).thenApply(c -> check(c, req, expires, params, signature, true));
    }

    private static SigningContext check(Credential credential, S3Request req, String date, List<String[]> params,
                                        String signature, boolean presigned) {
        String stringToSign = stringToSign(req, date, params, false, SUB_RESOURCES);
        if (!SigV4.equalSignatures(sign(credential.secretKey(), stringToSign), signature)
                && alternatives(req, date, params).stream()
                .noneMatch(s -> SigV4.equalSignatures(sign(credential.secretKey(), s), signature))) {
            throw new S3Error("SignatureDoesNotMatch", HttpResponseStatus.FORBIDDEN,
                    "The request signature we calculated does not match the signature you provided. "
                            + "Check your key and signing method.")
                    .with("AWSAccessKeyId", credential.accessKeyId()).with("StringToSign", stringToSign)
                    .with("SignatureProvided", signature);
        }
        return SigningContext.sigV2(credential, presigned);
    }

    /**
     * The StringToSigns real clients produce where they depart from AWS's rules: botocore signs a
     * path-style bucket request's resource as "/bucket/" while sending "/bucket", and leaves
     * {@code retention} and {@code legal-hold} out of the signed sub-resources (minio-go signs them).
     */
    private static List<String> alternatives(S3Request req, String date, List<String[]> params) {
        List<String> out = new ArrayList<>(2);
        if (req.key() == null && req.bucket() != null && !req.rawPath().endsWith("/")) {
            out.add(stringToSign(req, date, params, true, SUB_RESOURCES));
        }
        if (req.hasParam("retention") || req.hasParam("legal-hold")) {
            out.add(stringToSign(req, date, params, false, BOTOCORE_SUB_RESOURCES));
        }
        return out;
    }

    /** {@code base64(HMAC-SHA1(secret, stringToSign))}, both UTF-8. */
    static String sign(String secret, String stringToSign) {
        try {
            Mac mac = Mac.getInstance("HmacSHA1");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
            return Base64.getEncoder().encodeToString(mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA1 unavailable", e);
        }
    }

    /**
     * The StringToSign of a request.
     *
     * @param date the Date header, "" when x-amz-date is sent, or a presigned URL's Expires
     * @param queryParams a presigned URL's raw parameters (may carry the signed headers), else empty
     * @param slashed whether to sign the path with a '/' appended
     * @param subResources the query parameters signed as part of the resource
     */
    static String stringToSign(S3Request req, String date, List<String[]> queryParams, boolean slashed,
                               Set<String> subResources) {
        StringBuilder sb = new StringBuilder(256);
        sb.append(req.method().name()).append('\n');
        sb.append(standardHeader(req, "Content-MD5", queryParams)).append('\n');
        sb.append(standardHeader(req, "Content-Type", queryParams)).append('\n');
        sb.append(date).append('\n');
        TreeMap<String, List<String>> amz = new TreeMap<>();
        for (Map.Entry<String, String> h : req.headers()) {
            String name = h.getKey().toLowerCase(Locale.ROOT);
            if (name.startsWith("x-amz-")) {
                amz.computeIfAbsent(name, n -> new ArrayList<>()).add(HeaderText.decode(h.getValue()).trim());
            }
        }
        for (String[] p : queryParams) {
            String name = p[0].toLowerCase(Locale.ROOT);
            if (name.startsWith("x-amz-")) {
                amz.computeIfAbsent(name, n -> new ArrayList<>()).add(p[1].trim());
            }
        }
        amz.forEach((name, values) -> sb.append(name).append(':').append(String.join(",", values)).append('\n'));
        return sb.append(canonicalResource(req, slashed, subResources)).toString();
    }

    private static String standardHeader(S3Request req, String name, List<String[]> queryParams) {
        String value = req.header(name);
        if (value == null) {
            value = first(queryParams, name.toLowerCase(Locale.ROOT));
        }
        return value == null ? "" : value.trim();
    }

    /** {@code [/bucket]path[?sub-resources]}: the bucket only when the Host named it. */
    static String canonicalResource(S3Request req, boolean slashed, Set<String> subResources) {
        String path = req.rawPath();
        boolean virtualHost = req.bucket() != null
                && UriCodec.decode(path, false).equals("/" + (req.key() == null ? "" : req.key()));
        StringBuilder sb = new StringBuilder(path.length() + 64);
        if (virtualHost) {
            sb.append('/').append(req.bucket());
        }
        sb.append(path);
        if (slashed) {
            sb.append('/');
        }
        List<String[]> signed = new ArrayList<>();
        for (String[] p : rawParams(req.rawQuery())) {
            if (subResources.contains(p[0])) {
                signed.add(p);
            }
        }
        signed.sort(Comparator.comparing((String[] p) -> p[0]));
        for (int i = 0; i < signed.size(); i++) {
            String[] p = signed.get(i);
            sb.append(i == 0 ? '?' : '&').append(p[0]);
            // A sub-resource sent without '=' (?acl) is signed without one.
            if (p[2] != null) {
                sb.append('=').append(p[1]);
            }
        }
        return sb.toString();
    }

    /**
     * The query's parameters as {name, decoded value, raw value or null without '='}, percent-decoded
     * without treating '+' as a space (a base64 signature keeps its '+').
     */
    private static List<String[]> rawParams(String rawQuery) {
        List<String[]> out = new ArrayList<>();
        for (String part : rawQuery.split("&")) {
            if (part.isEmpty()) {
                continue;
            }
            int eq = part.indexOf('=');
            String name = UriCodec.decode(eq < 0 ? part : part.substring(0, eq), false);
            String raw = eq < 0 ? null : part.substring(eq + 1);
            out.add(new String[] {name, raw == null ? "" : UriCodec.decode(raw, false), raw});
        }
        return out;
    }

    private static String first(List<String[]> params, String name) {
        for (String[] p : params) {
            if (p[0].equals(name)) {
                return p[1];
            }
        }
        return null;
    }

    private static Instant parseDate(String date) {
        Instant httpDate = HttpDates.parse(date);
        if (httpDate != null) {
            return httpDate;
        }
        try {
            return LocalDateTime.parse(date.trim(), SigV4Verifier.AMZ_DATE).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw S3Error.accessDenied("AWS authentication requires a valid Date or x-amz-date header");
        }
    }
}
