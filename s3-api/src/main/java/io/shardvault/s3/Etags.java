package io.shardvault.s3;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/** ETag rules shared by the server and stores. Stateless and thread-safe. */
public final class Etags {
    private Etags() {
    }

    /** Strips surrounding quotes (and a weak {@code W/} prefix) from a client-sent ETag. */
    public static String unquote(String etag) {
        String e = etag.trim();
        if (e.startsWith("W/")) {
            e = e.substring(2);
        }
        if (e.length() >= 2 && e.startsWith("\"") && e.endsWith("\"")) {
            e = e.substring(1, e.length() - 1);
        }
        return e;
    }

    /** Whether an If-Match / If-None-Match value (a list, or {@code *}) matches an ETag. */
    public static boolean matches(String headerValue, String etag) {
        for (String candidate : headerValue.split(",")) {
            String c = candidate.trim();
            if (c.equals("*") || unquote(c).equals(etag)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The multipart ETag: hex MD5 of the concatenated binary part MD5s, then {@code -N}.
     *
     * @param partEtags the parts' hex MD5 ETags (without quotes), in part order
     */
    public static String multipart(List<String> partEtags) {
        try {
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            for (String part : partEtags) {
                md5.update(HexFormat.of().parseHex(unquote(part)));
            }
            return HexFormat.of().formatHex(md5.digest()) + "-" + partEtags.size();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no MD5", e);
        } catch (IllegalArgumentException e) {
            // A non-hex part ETag (a copied multipart part): digest its text so the result stays stable.
            try {
                MessageDigest md5 = MessageDigest.getInstance("MD5");
                for (String part : partEtags) {
                    md5.update(part.getBytes(StandardCharsets.UTF_8));
                }
                return HexFormat.of().formatHex(md5.digest()) + "-" + partEtags.size();
            } catch (NoSuchAlgorithmException impossible) {
                throw new IllegalStateException("the JDK has no MD5", impossible);
            }
        }
    }
}
