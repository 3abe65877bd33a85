package io.shardvault.s3;

import java.util.Locale;

/** The additional checksums S3 defines ({@code x-amz-checksum-*}). */
public enum ChecksumAlgorithm {
    CRC32("crc32"),
    CRC32C("crc32c"),
    CRC64NVME("crc64nvme"),
    SHA1("sha1"),
    SHA256("sha256");

    private final String headerSuffix;

    ChecksumAlgorithm(String headerSuffix) {
        this.headerSuffix = headerSuffix;
    }

    /** The header carrying this checksum, {@code x-amz-checksum-crc32} and so on. */
    public String headerName() {
        return "x-amz-checksum-" + headerSuffix;
    }

    /** The name S3 uses in XML and in {@code x-amz-checksum-algorithm}: {@code CRC32}, ... */
    public String s3Name() {
        return name();
    }

    /** Whether a multipart checksum of this algorithm may be of type FULL_OBJECT (only the CRCs). */
    public boolean combinable() {
        return this == CRC32 || this == CRC32C || this == CRC64NVME;
    }

    /** The algorithm S3 names so (case-insensitive), or {@code null}. */
    public static ChecksumAlgorithm fromS3Name(String name) {
        if (name == null) {
            return null;
        }
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
