package io.shardvault.common.erasure;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Deterministic test bytes and digests. The byte stream is SplitMix64 (documented in
 * docs/ERASURE_FORMAT.md so other engines can regenerate the golden stripes): state += 0x9E3779B97F4A7C15,
 * z = mix(state), 8 bytes little-endian per step.
 */
public final class TestData {
    private TestData() {
    }

    /** Fills {@code length} bytes from the buffer's position with the SplitMix64 stream of {@code seed}. */
    public static void fill(ByteBuffer buffer, int length, long seed) {
        long state = seed;
        int base = buffer.position();
        for (int i = 0; i < length; i += 8) {
            state += 0x9E3779B97F4A7C15L;
            long z = state;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            z = z ^ (z >>> 31);
            for (int b = 0; b < 8 && i + b < length; b++) {
                buffer.put(base + i + b, (byte) (z >>> (8 * b)));
            }
        }
    }

    /** A copy of {@code length} bytes from the buffer's position. */
    public static byte[] bytes(ByteBuffer buffer, int length) {
        byte[] out = new byte[length];
        buffer.get(buffer.position(), out, 0, length);
        return out;
    }

    /** The SHA-256 of {@code bytes}, in hex. */
    public static String sha256(byte[] bytes) {
        return sha256(ByteBuffer.wrap(bytes), bytes.length);
    }

    public static String sha256(ByteBuffer buffer, int length) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(buffer.slice(buffer.position(), length));
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    /** Fills a buffer with a byte that decoding must overwrite. */
    public static void poison(ByteBuffer buffer, int length) {
        for (int i = 0; i < length; i++) {
            buffer.put(buffer.position() + i, (byte) 0xA5);
        }
    }
}
