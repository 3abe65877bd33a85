package io.shardvault.coordinator.catalog.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Big-endian primitives for the catalog's binary encodings (commands, results, stored records).
 * Strings are a u32 byte length then UTF-8. Not thread-safe: one writer or reader per encoding.
 */
final class Wire {
    private Wire() {
    }

    /** A growable byte array. */
    static final class Writer {
        private byte[] buf;
        private int len;

        Writer() {
            this(64);
        }

        Writer(int capacity) {
            buf = new byte[Math.max(16, capacity)];
        }

        private void ensure(int more) {
            if (len + more > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
            }
        }

        Writer u8(int v) {
            ensure(1);
            buf[len++] = (byte) v;
            return this;
        }

        Writer bool(boolean v) {
            return u8(v ? 1 : 0);
        }

        Writer u16(int v) {
            ensure(2);
            buf[len++] = (byte) (v >>> 8);
            buf[len++] = (byte) v;
            return this;
        }

        Writer i32(int v) {
            ensure(4);
            for (int s = 24; s >= 0; s -= 8) {
                buf[len++] = (byte) (v >>> s);
            }
            return this;
        }

        Writer i64(long v) {
            ensure(8);
            for (int s = 56; s >= 0; s -= 8) {
                buf[len++] = (byte) (v >>> s);
            }
            return this;
        }

        Writer raw(byte[] b) {
            ensure(b.length);
            System.arraycopy(b, 0, buf, len, b.length);
            len += b.length;
            return this;
        }

        Writer bytes(byte[] b) {
            i32(b.length);
            return raw(b);
        }

        Writer str(String s) {
            return bytes(s.getBytes(StandardCharsets.UTF_8));
        }

        int length() {
            return len;
        }

        byte[] toByteArray() {
            return Arrays.copyOf(buf, len);
        }
    }

    /** Reads what a {@link Writer} wrote; a short or malformed input throws {@link IllegalArgumentException}. */
    static final class Reader {
        private final byte[] buf;
        private int pos;
        private final int end;

        Reader(byte[] buf) {
            this(buf, 0, buf.length);
        }

        Reader(byte[] buf, int offset, int length) {
            this.buf = buf;
            this.pos = offset;
            this.end = offset + length;
        }

        private void need(int n) {
            if (n < 0 || pos + n > end) {
                throw new IllegalArgumentException("truncated encoding: need " + n + " at " + pos + " of " + end);
            }
        }

        int u8() {
            need(1);
            return buf[pos++] & 0xff;
        }

        boolean bool() {
            int v = u8();
            if (v > 1) {
                throw new IllegalArgumentException("bad boolean " + v);
            }
            return v == 1;
        }

        int u16() {
            need(2);
            int v = (buf[pos] & 0xff) << 8 | (buf[pos + 1] & 0xff);
            pos += 2;
            return v;
        }

        int i32() {
            need(4);
            int v = 0;
            for (int i = 0; i < 4; i++) {
                v = v << 8 | (buf[pos++] & 0xff);
            }
            return v;
        }

        long i64() {
            need(8);
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = v << 8 | (buf[pos++] & 0xff);
            }
            return v;
        }

        byte[] raw(int n) {
            need(n);
            byte[] out = Arrays.copyOfRange(buf, pos, pos + n);
            pos += n;
            return out;
        }

        byte[] bytes() {
            return raw(i32());
        }

        String str() {
            int n = i32();
            need(n);
            String s = new String(buf, pos, n, StandardCharsets.UTF_8);
            pos += n;
            return s;
        }

        boolean atEnd() {
            return pos == end;
        }

        void expectEnd() {
            if (pos != end) {
                throw new IllegalArgumentException((end - pos) + " trailing bytes");
            }
        }
    }

    static byte[] u64(long v) {
        return new Writer(8).i64(v).toByteArray();
    }

    static long u64(byte[] b) {
        return new Reader(b).i64();
    }
}
