package io.shardvault.s3.internal.body;

import io.netty.buffer.ByteBuf;
import io.shardvault.s3.BodyDigests;
import io.shardvault.s3.BodySource;
import io.shardvault.s3.Checksum;
import io.shardvault.s3.ChecksumAlgorithm;
import io.shardvault.s3.ChecksumType;
import io.shardvault.s3.internal.S3Error;
import io.shardvault.s3.internal.checksum.ChecksumFunctions;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The {@link BodySource} of a request: pulls raw buffers with demand, strips aws-chunked framing
 * (checking chunk signatures), counts and digests the object bytes, and checks at the end the
 * declared length, Content-MD5, the signed payload hash and the declared {@code x-amz-checksum-*}
 * (header or trailer). Only the last read reveals the verdict. Not thread-safe (one reader).
 */
public final class VerifyingBodySource implements BodySource {
    /**
     * What the request declared about its body.
     *
     * @param declaredLength the object bytes declared, or -1 when none was (a {@code Transfer-Encoding: chunked}
     *     body without aws-chunked framing): the count is then known at the end
     * @param maxLength the most object bytes accepted; more fail the body with {@code EntityTooLarge} as
     *     they stream (a declared length is checked before the body is opened)
     */
    public record Expectations(long declaredLength, long maxLength, String contentMd5, ChecksumAlgorithm algorithm,
                               String checksumHeaderValue, boolean checksumInTrailer, String payloadSha256Hex,
                               boolean computeDefaultChecksum) {
    }

    private final RawBody raw;
    private final AwsChunkedDecoder decoder;
    private final Expectations expect;
    private final ChecksumFunctions.Digest md5 = ChecksumFunctions.md5();
    private final ChecksumFunctions.Digest checksum;
    private final ChecksumAlgorithm checksumAlgorithm;
    private final ChecksumFunctions.Digest payloadSha;
    private final byte[] scratch = new byte[16 * 1024];
    private final AtomicBoolean discarded = new AtomicBoolean();
    private final ArrayDeque<ByteBuf> plain = new ArrayDeque<>();
    private long count;
    private boolean rawEnded;
    private boolean finished;
    private BodyDigests digests;
    private Throwable failure;

    public VerifyingBodySource(RawBody raw, AwsChunkedDecoder decoder, Expectations expect) {
        this.raw = raw;
        this.decoder = decoder;
        this.expect = expect;
        ChecksumAlgorithm alg = expect.algorithm();
        if (alg == null && expect.computeDefaultChecksum()) {
            alg = ChecksumAlgorithm.CRC64NVME;
        }
        this.checksumAlgorithm = alg;
        this.checksum = alg == null ? null : ChecksumFunctions.create(alg);
        this.payloadSha = expect.payloadSha256Hex() == null ? null : ChecksumFunctions.create(ChecksumAlgorithm.SHA256);
    }

    @Override
    public long contentLength() {
        return expect.declaredLength();
    }

    @Override
    public CompletableFuture<ByteBuf> read() {
        CompletableFuture<ByteBuf> result = new CompletableFuture<>();
        pump(result);
        return result;
    }

    private void pump(CompletableFuture<ByteBuf> result) {
        while (true) {
            if (failure != null) {
                result.completeExceptionally(failure);
                return;
            }
            if (finished) {
                result.complete(null);
                return;
            }
            try {
                ByteBuf out = decoder != null ? decoder.poll() : plain.poll();
                if (out != null) {
                    deliver(out, result);
                    return;
                }
                if (rawEnded) {
                    finish();
                    continue;
                }
            } catch (RuntimeException e) {
                fail(e);
                continue;
            }
            CompletableFuture<ByteBuf> next = raw.next();
            if (next.isDone() && !next.isCompletedExceptionally()) {
                accept(next.join());
                continue;
            }
            next.whenComplete((buf, err) -> {
                if (err != null) {
                    fail(err);
                } else {
                    accept(buf);
                }
                pump(result);
            });
            return;
        }
    }

    private void accept(ByteBuf buf) {
        if (buf == null) {
            rawEnded = true;
            return;
        }
        if (failure != null) {
            buf.release();
            return;
        }
        try {
            if (decoder != null) {
                if (payloadSha != null) {
                    digest(payloadSha, buf);
                }
                decoder.feed(buf);
            } else {
                plain.add(buf);
            }
        } catch (RuntimeException e) {
            fail(e);
        }
    }

    private void deliver(ByteBuf out, CompletableFuture<ByteBuf> result) {
        count += out.readableBytes();
        if (expect.declaredLength() >= 0 && count > expect.declaredLength()) {
            out.release();
            fail(S3Error.incompleteBody("The body is longer than its declared length."));
            result.completeExceptionally(failure);
            return;
        }
        if (count > expect.maxLength()) {
            out.release();
            fail(S3Error.entityTooLarge(expect.maxLength()));
            result.completeExceptionally(failure);
            return;
        }
        digest(md5, out);
        if (checksum != null) {
            digest(checksum, out);
        }
        if (decoder == null && payloadSha != null) {
            digest(payloadSha, out);
        }
        result.complete(out);
    }

    private void digest(ChecksumFunctions.Digest d, ByteBuf buf) {
        int idx = buf.readerIndex();
        int left = buf.readableBytes();
        if (buf.hasArray()) {
            d.update(buf.array(), buf.arrayOffset() + idx, left);
            return;
        }
        while (left > 0) {
            int n = Math.min(left, scratch.length);
            buf.getBytes(idx, scratch, 0, n);
            d.update(scratch, 0, n);
            idx += n;
            left -= n;
        }
    }

    private void finish() {
        if (decoder != null) {
            decoder.finish();
        }
        if (expect.declaredLength() >= 0 && count != expect.declaredLength()) {
            throw S3Error.incompleteBody("You did not provide the number of bytes specified by the "
                    + (decoder != null ? "x-amz-decoded-content-length" : "Content-Length") + " HTTP header.");
        }
        if (payloadSha != null) {
            String actual = HexFormat.of().formatHex(payloadSha.finish());
            if (!actual.equals(expect.payloadSha256Hex())) {
                throw S3Error.badRequest("XAmzContentSHA256Mismatch",
                        "The provided 'x-amz-content-sha256' header does not match what was computed.")
                        .with("ClientComputedContentSHA256", expect.payloadSha256Hex())
                        .with("S3ComputedContentSHA256", actual);
            }
        }
        byte[] md5Bytes = md5.finish();
        if (expect.contentMd5() != null
                && !Base64.getEncoder().encodeToString(md5Bytes).equals(expect.contentMd5().trim())) {
            throw S3Error.badDigest("The Content-MD5 you specified did not match what we received.");
        }
        Checksum stored = null;
        if (checksum != null) {
            String actual = Base64.getEncoder().encodeToString(checksum.finish());
            String declared = expect.checksumHeaderValue();
            if (expect.algorithm() != null && expect.checksumInTrailer()) {
                declared = decoder == null ? null : decoder.trailers().get(expect.algorithm().headerName());
                if (declared == null) {
                    throw S3Error.badRequest("InvalidRequest", "The trailing checksum "
                            + expect.algorithm().headerName() + " was declared but not sent.");
                }
            }
            if (declared != null && !declared.trim().equals(actual)) {
                throw S3Error.badDigest("The " + checksumAlgorithm.s3Name()
                        + " you specified did not match the calculated checksum.");
            }
            stored = new Checksum(checksumAlgorithm, actual, ChecksumType.FULL_OBJECT);
        }
        digests = new BodyDigests(HexFormat.of().formatHex(md5Bytes), count, stored);
        finished = true;
    }

    private void fail(Throwable t) {
        if (failure == null) {
            failure = t;
        }
        releaseBuffered();
        raw.discard();
    }

    private void releaseBuffered() {
        if (decoder != null) {
            decoder.releaseAll();
        }
        for (ByteBuf b; (b = plain.poll()) != null; ) {
            b.release();
        }
    }

    @Override
    public BodyDigests digests() {
        if (digests == null) {
            throw new IllegalStateException("the body has not been read to its end");
        }
        return digests;
    }

    @Override
    public void discard() {
        if (discarded.compareAndSet(false, true)) {
            if (failure == null && !finished) {
                failure = S3Error.incompleteBody("the body was discarded");
            }
            releaseBuffered();
            raw.discard();
        }
    }

    /** Whether the whole body was read and verified. */
    public boolean completed() {
        return finished;
    }
}
