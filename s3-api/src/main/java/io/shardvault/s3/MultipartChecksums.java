package io.shardvault.s3;

import io.shardvault.s3.internal.checksum.ChecksumFunctions;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/**
 * The checksum of a completed multipart object, as AWS defines it. Stateless and thread-safe.
 *
 * <ul>
 *   <li>COMPOSITE (any algorithm): the checksum of the concatenated binary part checksums, shown as
 *       {@code base64-N}.</li>
 *   <li>FULL_OBJECT (CRC32, CRC32C, CRC64NVME only): the CRC of the whole object, computed from the
 *       part CRCs and sizes by CRC combination, without reading the bytes.</li>
 * </ul>
 */
public final class MultipartChecksums {
    private MultipartChecksums() {
    }

    /**
     * The final checksum of an upload.
     *
     * @param algorithm the upload's algorithm
     * @param type its type
     * @param partChecksums each part's checksum (FULL_OBJECT values of that part's bytes), in order
     * @param partSizes each part's size, in order
     */
    public static Checksum combine(ChecksumAlgorithm algorithm, ChecksumType type, List<Checksum> partChecksums,
                                   List<Long> partSizes) {
        Objects.requireNonNull(algorithm, "algorithm");
        Objects.requireNonNull(type, "type");
        if (partChecksums.size() != partSizes.size()) {
            throw new IllegalArgumentException("one size per part: " + partChecksums.size() + " vs " + partSizes.size());
        }
        Base64.Decoder dec = Base64.getDecoder();
        if (type == ChecksumType.COMPOSITE) {
            ChecksumFunctions.Digest digest = ChecksumFunctions.create(algorithm);
            for (Checksum part : partChecksums) {
                byte[] raw = dec.decode(part.value());
                digest.update(raw, 0, raw.length);
            }
            return new Checksum(algorithm, Base64.getEncoder().encodeToString(digest.finish()) + "-"
                    + partChecksums.size(), ChecksumType.COMPOSITE);
        }
        if (!algorithm.combinable()) {
            throw new IllegalArgumentException("FULL_OBJECT checksums need a CRC, not " + algorithm);
        }
        long crc = ChecksumFunctions.create(algorithm).finishAsLong();
        for (int i = 0; i < partChecksums.size(); i++) {
            long partCrc = ChecksumFunctions.toLong(dec.decode(partChecksums.get(i).value()));
            crc = ChecksumFunctions.combine(algorithm, crc, partCrc, partSizes.get(i));
        }
        return new Checksum(algorithm, Base64.getEncoder().encodeToString(ChecksumFunctions.toBytes(algorithm, crc)),
                ChecksumType.FULL_OBJECT);
    }
}
