package io.shardvault.s3.internal;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Strict percent-decoding and AWS's URI encoding (RFC 3986 unreserved characters kept). Stateless. */
public final class UriCodec {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private UriCodec() {
    }

    /**
     * Decodes {@code %XX} escapes (and {@code +} as space when {@code plusIsSpace}) into UTF-8 text.
     *
     * @throws S3Error InvalidURI for a bad escape or invalid UTF-8
     */
    public static String decode(String s, boolean plusIsSpace) {
        if (s.indexOf('%') < 0 && (!plusIsSpace || s.indexOf('+') < 0)) {
            return s;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length()) {
                    throw invalidUri();
                }
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    throw invalidUri();
                }
                out.write(hi << 4 | lo);
                i += 2;
            } else if (c == '+' && plusIsSpace) {
                out.write(' ');
            } else if (c < 0x80) {
                out.write(c);
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                out.write(b, 0, b.length);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(out.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            throw invalidUri();
        }
    }

    private static S3Error invalidUri() {
        return S3Error.badRequest("InvalidURI", "Couldn't parse the specified URI.");
    }

    /** AWS SigV4 URI encoding: everything but {@code A-Za-z0-9-._~} (and {@code /} when kept). */
    public static String encode(String s, boolean keepSlash) {
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
                    || c == '_' || c == '~' || (keepSlash && c == '/')) {
                sb.append((char) c);
            } else {
                sb.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
            }
        }
        return sb.toString();
    }
}
