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

    private static void write(ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        out.write(b, 0, b.length);
    }
}
