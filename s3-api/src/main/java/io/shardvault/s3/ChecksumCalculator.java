package io.shardvault.s3;

import io.shardvault.s3.internal.checksum.ChecksumFunctions;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Objects;

/**
 * Computes an additional checksum ({@code x-amz-checksum-*}) over bytes a store reads itself, such as the
 * bytes of a part made by UploadPartCopy, which must carry the upload's checksum like any other part.
 * Not thread-safe: one per stream of bytes.
 */
public final class ChecksumCalculator {
    private final ChecksumAlgorithm algorithm;
    private final ChecksumFunctions.Digest digest;
    private final byte[] scratch = new byte[8192];

    private ChecksumCalculator(ChecksumAlgorithm algorithm) {
        this.algorithm = algorithm;
        this.digest = ChecksumFunctions.create(algorithm);
    }

    public static ChecksumCalculator of(ChecksumAlgorithm algorithm) {
        return new ChecksumCalculator(Objects.requireNonNull(algorithm, "algorithm"));
    }

    /** Adds the buffer's remaining bytes; its position is left unchanged. */
    public void update(ByteBuffer bytes) {
        ByteBuffer b = bytes.duplicate();
        if (b.hasArray()) {
            digest.update(b.array(), b.arrayOffset() + b.position(), b.remaining());
            return;
        }
        while (b.hasRemaining()) {
            int n = Math.min(scratch.length, b.remaining());
            b.get(scratch, 0, n);
            digest.update(scratch, 0, n);
        }
    }

    /** The checksum of every byte added, as a FULL_OBJECT value of those bytes. Call once. */
    public Checksum finish() {
        return new Checksum(algorithm, Base64.getEncoder().encodeToString(digest.finish()), ChecksumType.FULL_OBJECT);
    }
}
