package io.shardvault.coordinator.catalog;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What a client said about an object besides its bytes.
 *
 * @param contentType the Content-Type (empty when none)
 * @param system the other system metadata that S3 stores and returns: Content-Encoding,
 *     Content-Disposition, Content-Language, Cache-Control, Expires, storage class, keyed by the
 *     header name; and the canned ACL, under {@link #CANNED_ACL}
 * @param user the user metadata ({@code x-amz-meta-*}), keyed without the prefix
 * @param checksums additional checksums, algorithm (CRC32, CRC32C, CRC64NVME, SHA1, SHA256) to
 *     the base64 value the client sent or we computed
 * @param checksumType FULL_OBJECT or COMPOSITE (empty when there are no checksums)
 */
public record ObjectMetadata(String contentType, Map<String, String> system, Map<String, String> user,
                             Map<String, String> checksums, String checksumType) {
    public static final ObjectMetadata EMPTY = new ObjectMetadata("", Map.of(), Map.of(), Map.of(), "");

    /**
     * The {@link #system()} entry holding the version's canned ACL name (issue #17); absent means
     * {@link Catalog#PRIVATE_ACL}. It is not metadata S3 returns as a header.
     */
    public static final String CANNED_ACL = "x-amz-acl";

    public ObjectMetadata {
        Objects.requireNonNull(contentType, "contentType");
        Objects.requireNonNull(checksumType, "checksumType");
        // Sorted copies: equal metadata encodes to equal bytes.
        system = sortedCopy(system);
        user = sortedCopy(user);
        checksums = sortedCopy(checksums);
    }

    /** The version's canned ACL name. */
    public String cannedAcl() {
        return system.getOrDefault(CANNED_ACL, Catalog.PRIVATE_ACL);
    }

    /** This metadata with another canned ACL (a private one is kept as no entry). */
    public ObjectMetadata withCannedAcl(String acl) {
        Map<String, String> s = new TreeMap<>(system);
        if (acl.equals(Catalog.PRIVATE_ACL)) {
            s.remove(CANNED_ACL);
        } else {
            s.put(CANNED_ACL, acl);
        }
        return new ObjectMetadata(contentType, s, user, checksums, checksumType);
    }

    private static Map<String, String> sortedCopy(Map<String, String> map) {
        return java.util.Collections.unmodifiableSortedMap(new TreeMap<>(map));
    }
}
