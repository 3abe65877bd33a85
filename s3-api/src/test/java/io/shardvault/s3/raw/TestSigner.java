package io.shardvault.s3.raw;

import io.shardvault.s3.internal.UriCodec;
import io.shardvault.s3.internal.auth.SigV4;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * SigV4 header signing and aws-chunked encoding for raw tests whose subject is not the signer
 * (the SDK tests check the verifier against AWS's own signer). Signs every header it is given.
 * Also a SigV2 signer, written from AWS's description of it, for the SigV2 tests.
 */
final class TestSigner {
    static final DateTimeFormatter AMZ = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private final String key;
    private final String secret;
    private final Instant time;
    String lastSignature;

    TestSigner(String key, String secret, Instant time) {
        this.key = key;
        this.secret = secret;
        this.time = time;
    }

    String amzDate() {
        return AMZ.format(time);
    }

    String scope() {
        return amzDate().substring(0, 8) + "/us-east-1/s3/aws4_request";
    }

    byte[] signingKey() {
        return SigV4.signingKey(secret, amzDate().substring(0, 8), "us-east-1", "s3");
    }

    /** Adds x-amz-date and Authorization to the headers (which must include Host and x-amz-content-sha256). */
    List<String[]> sign(String method, String path, String query, List<String[]> headers) {
        List<String[]> all = new ArrayList<>(headers);
        all.add(new String[] {"x-amz-date", amzDate()});
        TreeMap<String, String> canon = new TreeMap<>();
        for (String[] h : all) {
            canon.merge(h[0].toLowerCase(Locale.ROOT), h[1].trim(), (a, b) -> a + "," + b);
        }
        String payload = canon.get("x-amz-content-sha256");
        StringBuilder cr = new StringBuilder(method).append('\n').append(path).append('\n');
        TreeMap<String, String> q = new TreeMap<>();
        if (!query.isEmpty()) {
            for (String p : query.split("&")) {
                int eq = p.indexOf('=');
                q.put(UriCodec.encode(UriCodec.decode(eq < 0 ? p : p.substring(0, eq), true), false),
                        eq < 0 ? "" : UriCodec.encode(UriCodec.decode(p.substring(eq + 1), true), false));
            }
        }
        List<String> qs = new ArrayList<>();
        q.forEach((k, v) -> qs.add(k + "=" + v));
        cr.append(String.join("&", qs)).append('\n');
        canon.forEach((k, v) -> cr.append(k).append(':').append(v).append('\n'));
        String signed = String.join(";", canon.keySet());
        cr.append('\n').append(signed).append('\n').append(payload);
        String sts = "AWS4-HMAC-SHA256\n" + amzDate() + "\n" + scope() + "\n" + SigV4.sha256Hex(cr.toString());
        lastSignature = SigV4.sign(signingKey(), sts);
        all.add(new String[] {"Authorization", "AWS4-HMAC-SHA256 Credential=" + key + "/" + scope()
                + ", SignedHeaders=" + signed + ", Signature=" + lastSignature});
        return all;
    }

    /** An aws-chunked body with chained chunk signatures (seeded by the last header signature). */
    byte[] signedChunks(byte[] data, int chunkSize, String trailerName, String trailerValue) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String previous = lastSignature;
        for (int off = 0; ; off += chunkSize) {
            int n = Math.max(0, Math.min(chunkSize, data.length - off));
            byte[] chunk = java.util.Arrays.copyOfRange(data, Math.min(off, data.length), Math.min(off, data.length) + n);
            String sts = "AWS4-HMAC-SHA256-PAYLOAD\n" + amzDate() + "\n" + scope() + "\n" + previous + "\n"
                    + SigV4.EMPTY_SHA256 + "\n" + SigV4.sha256Hex(chunk);
            String sig = SigV4.sign(signingKey(), sts);
            write(out, Integer.toHexString(n) + ";chunk-signature=" + sig + "\r\n");
            out.write(chunk, 0, n);
            previous = sig;
            if (n == 0) {
                break;
            }
            write(out, "\r\n");
        }
        if (trailerName == null) {
            write(out, "\r\n");
        } else {
            String trailer = trailerName + ":" + trailerValue + "\n";
            String sts = "AWS4-HMAC-SHA256-TRAILER\n" + amzDate() + "\n" + scope() + "\n" + previous + "\n"
                    + SigV4.sha256Hex(trailer);
            write(out, trailerName + ":" + trailerValue + "\r\n");
            write(out, "x-amz-trailer-signature:" + SigV4.sign(signingKey(), sts) + "\r\n\r\n");
        }
        return out.toByteArray();
    }

    /** An unsigned aws-chunked body with a trailer. */
    static byte[] unsignedChunks(byte[] data, int chunkSize, String trailerName, String trailerValue) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int off = 0; off < data.length; off += chunkSize) {
            int n = Math.min(chunkSize, data.length - off);
            write(out, Integer.toHexString(n) + "\r\n");
            out.write(data, off, n);
            write(out, "\r\n");
        }
        write(out, "0\r\n");
        write(out, trailerName + ":" + trailerValue + "\r\n\r\n");
        return out.toByteArray();
    }

    /**
     * SigV2's StringToSign, from AWS's RESTAuthentication description: method, Content-MD5, Content-Type,
     * the date (or Expires), each x-amz-* header as "name:value" (lower-cased, sorted, one per line),
     * then the resource (with its sub-resources, which the caller writes).
     */
    static String v2StringToSign(String method, List<String[]> headers, String date, String resource) {
        String md5 = "";
        String type = "";
        TreeMap<String, String> amz = new TreeMap<>();
        for (String[] h : headers) {
            String name = h[0].toLowerCase(Locale.ROOT);
            if (name.equals("content-md5")) {
                md5 = h[1];
            } else if (name.equals("content-type")) {
                type = h[1];
            } else if (name.startsWith("x-amz-")) {
                amz.merge(name, h[1].trim(), (a, b) -> a + "," + b);
            }
        }
        StringBuilder sts = new StringBuilder(method).append('\n').append(md5).append('\n').append(type).append('\n')
                .append(date).append('\n');
        amz.forEach((k, v) -> sts.append(k).append(':').append(v).append('\n'));
        return sts.append(resource).toString();
    }

    /** SigV2's signature: base64 of HMAC-SHA1 keyed with the secret. */
    static String v2Signature(String secret, String stringToSign) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA1");
            mac.init(new javax.crypto.spec.SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
            return java.util.Base64.getEncoder().encodeToString(
                    mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Adds Authorization: AWS key:signature to headers (which carry their Date or x-amz-date). */
    List<String[]> signV2(String method, String resource, List<String[]> headers) {
        String date = "";
        boolean amzDate = false;
        for (String[] h : headers) {
            amzDate |= h[0].equalsIgnoreCase("x-amz-date");
            if (h[0].equalsIgnoreCase("Date")) {
                date = h[1];
            }
        }
        String sts = v2StringToSign(method, headers, amzDate ? "" : date, resource);
        List<String[]> all = new ArrayList<>(headers);
        all.add(new String[] {"Authorization", "AWS " + key + ":" + v2Signature(secret, sts)});
        return all;
    }

    /** The query of a SigV2 presigned URL expiring at {@code expires} (no signed headers). */
    String presignV2(String method, String resource, long expires) {
        String sig = v2Signature(secret, v2StringToSign(method, List.of(), Long.toString(expires), resource));
        return "AWSAccessKeyId=" + UriCodec.encode(key, false) + "&Expires=" + expires + "&Signature="
                + UriCodec.encode(sig, false);
    }

    /** Date: as clients send it, RFC 1123. */
    String httpDate() {
        return DateTimeFormatter.RFC_1123_DATE_TIME.format(time.atZone(ZoneOffset.UTC));
    }

    private static void write(ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        out.write(b, 0, b.length);
    }
}
