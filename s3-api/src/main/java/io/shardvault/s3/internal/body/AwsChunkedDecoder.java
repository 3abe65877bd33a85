package io.shardvault.s3.internal.body;

import io.netty.buffer.ByteBuf;
import io.shardvault.s3.internal.S3Error;
import io.shardvault.s3.internal.auth.SigV4;
import io.shardvault.s3.internal.auth.SigningContext;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Incremental decoder of {@code Content-Encoding: aws-chunked} bodies:
 *
 * <pre>
 *   hex-size [;chunk-signature=sig] CRLF  data  CRLF      (repeated)
 *   0 [;chunk-signature=sig] CRLF
 *   [trailer-name:value CRLF ...  [x-amz-trailer-signature:sig CRLF]]   (trailer variants)
 *   CRLF
 * </pre>
 *
 * With a {@link SigningContext}, every chunk signature is checked against the chain that starts at
 * the request's seed signature, and the trailer signature against the last chunk's. Data is emitted
 * as retained slices of the input, without copying. Not thread-safe.
 */
public final class AwsChunkedDecoder {
    private static final int MAX_LINE = 4096;
    private static final int MAX_TRAILER_BYTES = 16 * 1024;

    private enum State { HEADER, DATA, DATA_CRLF, FINAL_CRLF, TRAILER, DONE }

    private final SigningContext signing;
    private final boolean trailers;
    private final ArrayDeque<ByteBuf> out = new ArrayDeque<>();
    private final StringBuilder line = new StringBuilder();
    private final Map<String, String> trailerValues = new LinkedHashMap<>();
    private final StringBuilder trailerCanonical = new StringBuilder();
    private State state = State.HEADER;
    private long remaining;
    private String chunkSignature;
    private String previousSignature;
    private MessageDigest chunkSha;
    private long decoded;
    private boolean sawCr;

    /**
     * @param signing the request's signing context when chunks are signed, else null
     * @param trailers whether the body ends with trailers
     */
    public AwsChunkedDecoder(SigningContext signing, boolean trailers) {
        this.signing = signing;
        this.trailers = trailers;
        this.previousSignature = signing == null ? null : signing.seedSignature();
        this.chunkSha = signing == null ? null : SigV4.newSha256();
    }

    /** Decodes what {@code in} holds; takes ownership of it. Decoded data is then available from {@link #poll}. */
    public void feed(ByteBuf in) {
        try {
            while (in.isReadable()) {
                switch (state) {
                    case HEADER -> {
                        if (readLine(in)) {
                            parseHeader(line.toString());
                            line.setLength(0);
                        }
                    }
                    case DATA -> {
                        int n = (int) Math.min(remaining, in.readableBytes());
                        ByteBuf slice = in.readRetainedSlice(n);
                        if (chunkSha != null) {
                            if (slice.hasArray()) {
                                chunkSha.update(slice.array(), slice.arrayOffset() + slice.readerIndex(), n);
                            } else {
                                chunkSha.update(slice.nioBuffer());
                            }
                        }
                        out.add(slice);
                        remaining -= n;
                        decoded += n;
                        if (remaining == 0) {
                            state = State.DATA_CRLF;
                        }
                    }
                    case DATA_CRLF -> {
                        if (readLine(in)) {
                            if (line.length() != 0) {
                                throw corrupt("chunk data longer than its declared size");
                            }
                            verifyChunk();
                            state = State.HEADER;
                        }
                    }
                    case FINAL_CRLF -> {
                        if (readLine(in)) {
                            if (line.length() != 0) {
                                throw corrupt("bytes after the last chunk");
                            }
                            state = State.DONE;
                        }
                    }
                    case TRAILER -> {
                        if (readLine(in)) {
                            String l = line.toString();
                            line.setLength(0);
                            if (l.isEmpty()) {
                                finishTrailers();
                                state = State.DONE;
                            } else {
                                addTrailer(l);
                            }
                        }
                    }
                    case DONE -> throw corrupt("bytes after the end of the aws-chunked body");
                    default -> throw new IllegalStateException(state.name());
                }
            }
        } finally {
            in.release();
        }
    }

    /** The next decoded slice (owned by the caller), or null. */
    public ByteBuf poll() {
        return out.poll();
    }

    /** The body ended: checks it was complete. */
    public void finish() {
        if (state != State.DONE) {
            throw S3Error.incompleteBody("The request body terminated unexpectedly (aws-chunked body truncated).");
        }
    }

    /** The trailers received (lowercase names), once finished. */
    public Map<String, String> trailers() {
        return trailerValues;
    }

    public long decodedBytes() {
        return decoded;
    }

    /** Releases what was decoded but not polled. */
    public void releaseAll() {
        for (ByteBuf b; (b = out.poll()) != null; ) {
            b.release();
        }
    }

    private boolean readLine(ByteBuf in) {
        while (in.isReadable()) {
            byte b = in.readByte();
            if (sawCr) {
                sawCr = false;
                if (b == '\n') {
                    return true;
                }
                throw corrupt("bare CR in aws-chunked framing");
            }
            if (b == '\r') {
                sawCr = true;
            } else if (b == '\n') {
                throw corrupt("bare LF in aws-chunked framing");
            } else {
                if (line.length() >= MAX_LINE) {
                    throw corrupt("aws-chunked header line too long");
                }
                line.append((char) (b & 0xff));
            }
        }
        return false;
    }

    private void parseHeader(String header) {
        int semi = header.indexOf(';');
        String size = (semi < 0 ? header : header.substring(0, semi)).trim();
        long n;
        try {
            n = Long.parseLong(size, 16);
        } catch (NumberFormatException e) {
            throw corrupt("bad aws-chunked chunk size");
        }
        if (n < 0 || n > (1L << 36)) {
            throw corrupt("bad aws-chunked chunk size");
        }
        chunkSignature = null;
        if (semi >= 0) {
            for (String ext : header.substring(semi + 1).split(";")) {
                String e = ext.trim();
                if (e.startsWith("chunk-signature=")) {
                    chunkSignature = e.substring("chunk-signature=".length());
                }
            }
        }
        if (signing != null && chunkSignature == null) {
            throw signatureError("a chunk has no chunk-signature");
        }
        remaining = n;
        if (n == 0) {
            verifyChunk();
            state = trailers ? State.TRAILER : State.FINAL_CRLF;
        } else {
            state = State.DATA;
        }
    }

    private void verifyChunk() {
        if (signing == null) {
            return;
        }
        String dataHash = HexFormat.of().formatHex(chunkSha.digest());
        String expected = SigV4.sign(signing.signingKey(), signing.chunkStringToSign(previousSignature, dataHash));
        if (!SigV4.equalSignatures(expected, chunkSignature)) {
            throw signatureError("a chunk signature does not match");
        }
        previousSignature = chunkSignature;
    }

    private void addTrailer(String l) {
        int colon = l.indexOf(':');
        if (colon <= 0) {
            throw corrupt("malformed trailer");
        }
        String name = l.substring(0, colon).trim().toLowerCase(Locale.ROOT);
        String value = l.substring(colon + 1).trim();
        if (trailerCanonical.length() > MAX_TRAILER_BYTES) {
            throw corrupt("trailers too large");
        }
        if (name.equals("x-amz-trailer-signature")) {
            trailerValues.put(name, value);
        } else {
            trailerValues.put(name, value);
            trailerCanonical.append(name).append(':').append(value).append('\n');
        }
    }

    private void finishTrailers() {
        if (signing == null) {
            return;
        }
        String provided = trailerValues.remove("x-amz-trailer-signature");
        if (provided == null) {
            throw signatureError("the trailer has no x-amz-trailer-signature");
        }
        String hash = SigV4.sha256Hex(trailerCanonical.toString().getBytes(StandardCharsets.UTF_8));
        String expected = SigV4.sign(signing.signingKey(), signing.trailerStringToSign(previousSignature, hash));
        if (!SigV4.equalSignatures(expected, provided)) {
            throw signatureError("the trailer signature does not match");
        }
    }

    private static S3Error corrupt(String message) {
        return S3Error.incompleteBody("The aws-chunked body is malformed: " + message + ".");
    }

    private static S3Error signatureError(String message) {
        return new S3Error("SignatureDoesNotMatch", HttpResponseStatus.FORBIDDEN,
                "The request signature we calculated does not match the signature you provided: " + message + ".");
    }
}
