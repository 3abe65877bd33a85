package io.shardvault.s3;

import java.util.Objects;

/**
 * A checksum as S3 shows it.
 *
 * @param algorithm the algorithm
 * @param value the base64 of the big-endian checksum bytes; a COMPOSITE value carries its
 *     {@code -N} part-count suffix
 * @param type FULL_OBJECT for simple uploads and full-object multipart checksums
 */
public record Checksum(ChecksumAlgorithm algorithm, String value, ChecksumType type) {
    public Checksum {
        Objects.requireNonNull(algorithm, "algorithm");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(type, "type");
    }
}
