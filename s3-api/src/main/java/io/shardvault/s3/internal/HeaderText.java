package io.shardvault.s3.internal;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Header values beyond US-ASCII. Netty decodes header bytes as ISO-8859-1, one char per byte; clients
 * differ in what they put on the wire for a non-ASCII value (Go's net/http and the JDK's
 * HttpURLConnection send its UTF-8 bytes, Netty- and Apache-based clients ISO-8859-1), while every SDK
 * signer hashes the value's UTF-8 bytes. {@link #decode} recovers the value the client meant. Values
 * S3 answers with are made US-ASCII the way S3 documents for user metadata: RFC 2047 encoded-words.
 * Stateless.
 */
public final class HeaderText {
    private static final Pattern ENCODED_WORD = Pattern.compile("=\\?([^?]+)\\?([BbQq])\\?([^?]*)\\?=");

    private HeaderText() {
    }

    /**
     * The value a client meant by a header as Netty decoded it: its bytes read as UTF-8 when they are
     * valid UTF-8, else as they are (ISO-8859-1). ASCII values are returned unchanged.
     */
    public static String decode(String wire) {
        boolean ascii = true;
        for (int i = 0; i < wire.length(); i++) {
            char c = wire.charAt(i);
            if (c > 0xFF) {
                return wire;
            }
            ascii &= c < 0x80;
        }
        if (ascii) {
            return wire;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(wire.getBytes(StandardCharsets.ISO_8859_1))).toString();
        } catch (CharacterCodingException e) {
            return wire;
        }
    }

    /** A value as an RFC 2047 {@code =?UTF-8?B?...?=} word when it holds anything but printable ASCII. */
    public static String encodeRfc2047(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7E) {
                return "=?UTF-8?B?" + Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8))
                        + "?=";
            }
        }
        return value;
    }

    /**
     * A value that is one RFC 2047 encoded-word ({@code =?charset?B|Q?text?=}) decoded, as S3 stores
     * user metadata; any other value, or one in an unknown charset, is returned unchanged.
     */
    public static String decodeRfc2047(String value) {
        Matcher m = ENCODED_WORD.matcher(value.trim());
        if (!m.matches()) {
            return value;
        }
        try {
            Charset charset = Charset.forName(m.group(1));
            byte[] bytes = m.group(2).equalsIgnoreCase("B") ? Base64.getDecoder().decode(m.group(3))
                    : decodeQ(m.group(3));
            return new String(bytes, charset);
        } catch (IllegalArgumentException e) {
            // Also unknown charsets and bad =XX escapes: not an encoded-word we can read.
            return value;
        }
    }

    private static byte[] decodeQ(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '_') {
                out.write(' ');
            } else if (c == '=' && i + 2 < text.length()) {
                out.write(Integer.parseInt(text.substring(i + 1, i + 3), 16));
                i += 2;
            } else if (c == '=') {
                throw new IllegalArgumentException("truncated =XX escape");
            } else {
                out.write(c);
            }
        }
        return out.toByteArray();
    }
}
