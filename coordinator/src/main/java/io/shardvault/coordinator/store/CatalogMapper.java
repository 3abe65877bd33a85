package io.shardvault.coordinator.store;

import io.shardvault.coordinator.catalog.Bucket;
import io.shardvault.coordinator.catalog.DeleteObjectVersion;
import io.shardvault.coordinator.catalog.FilePart;
import io.shardvault.coordinator.catalog.ListObjectsQuery;
import io.shardvault.coordinator.catalog.ListVersionsQuery;
import io.shardvault.coordinator.catalog.MultipartUpload;
import io.shardvault.coordinator.catalog.ObjectListing;
import io.shardvault.coordinator.catalog.ObjectVersion;
import io.shardvault.coordinator.catalog.PartListing;
import io.shardvault.coordinator.catalog.PutObjectVersion;
import io.shardvault.coordinator.catalog.PutResult;
import io.shardvault.coordinator.catalog.Retention;
import io.shardvault.coordinator.catalog.UploadListing;
import io.shardvault.coordinator.catalog.UploadedPart;
import io.shardvault.coordinator.catalog.VersionListing;
import io.shardvault.coordinator.catalog.VersioningState;
import io.shardvault.coordinator.data.StoredFile;
import io.shardvault.s3.BucketInfo;
import io.shardvault.s3.CannedAcl;
import io.shardvault.s3.Checksum;
import io.shardvault.s3.ChecksumAlgorithm;
import io.shardvault.s3.ChecksumType;
import io.shardvault.s3.CreateMultipartUploadRequest;
import io.shardvault.s3.DeleteOutcome;
import io.shardvault.s3.DeleteResult;
import io.shardvault.s3.Etags;
import io.shardvault.s3.ListObjectsPage;
import io.shardvault.s3.ListObjectsRequest;
import io.shardvault.s3.ListVersionsRequest;
import io.shardvault.s3.ObjectIdentifier;
import io.shardvault.s3.ObjectInfo;
import io.shardvault.s3.ObjectLock;
import io.shardvault.s3.ObjectLockConfiguration;
import io.shardvault.s3.ObjectMetadata;
import io.shardvault.s3.ObjectStoreException;
import io.shardvault.s3.ObjectSummary;
import io.shardvault.s3.PartInfo;
import io.shardvault.s3.PartsPage;
import io.shardvault.s3.RetentionMode;
import io.shardvault.s3.UploadInfo;
import io.shardvault.s3.UploadsPage;
import io.shardvault.s3.VersionSummary;
import io.shardvault.s3.VersioningStatus;
import io.shardvault.s3.VersionsPage;
import io.shardvault.s3.WriteCondition;
import io.shardvault.s3.WriteResult;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The one place the S3 layer's types and the catalog's meet: every conversion between them, the
 * look-alikes ({@code ObjectMetadata}, {@code WriteCondition}, {@code RetentionMode},
 * {@code DeleteOutcome}, {@code DeleteResult}, {@code CompletedPart}) included. The catalog keeps its
 * own types because it must not depend on the S3 protocol library; s3-api knows nothing of the
 * catalog. What the catalog has no field for rides in its metadata's system map, under the names
 * below. Stateless.
 */
final class CatalogMapper {
    private static final String CACHE_CONTROL = "Cache-Control";
    private static final String CONTENT_DISPOSITION = "Content-Disposition";
    private static final String CONTENT_ENCODING = "Content-Encoding";
    private static final String CONTENT_LANGUAGE = "Content-Language";
    private static final String EXPIRES = "Expires";
    private static final String UPLOAD_ALGORITHM = "x-shardvault-upload-checksum-algorithm";
    private static final String UPLOAD_CHECKSUM_TYPE = "x-shardvault-upload-checksum-type";

    private CatalogMapper() {
    }

    // ---- buckets

    static BucketInfo bucketInfo(Bucket b, String region) {
        return new BucketInfo(b.name(), b.ownerAccessKeyId(), b.createdAt(), region, b.objectLockEnabled());
    }

    /** A stored ACL name; one this build does not know grants nothing beyond the owner. */
    static CannedAcl cannedAcl(String name) {
        CannedAcl acl = CannedAcl.fromHeader(name);
        return acl == null ? CannedAcl.PRIVATE : acl;
    }

    static VersioningStatus versioning(Bucket b) {
        return VersioningStatus.valueOf(b.versioning().name());
    }

    static VersioningState versioningState(VersioningStatus status) {
        return VersioningState.valueOf(status.name());
    }

    // ---- object lock

    static ObjectLockConfiguration lockConfiguration(Bucket b) {
        if (!b.objectLockEnabled()) {
            return ObjectLockConfiguration.DISABLED;
        }
        return b.defaultRetentionMode().map(m -> new ObjectLockConfiguration(true, fromCatalog(m),
                b.defaultRetentionDays(), 0)).orElse(new ObjectLockConfiguration(true, null, 0, 0));
    }

    static io.shardvault.coordinator.catalog.RetentionMode toCatalog(RetentionMode mode) {
        return io.shardvault.coordinator.catalog.RetentionMode.valueOf(mode.name());
    }

    private static RetentionMode fromCatalog(io.shardvault.coordinator.catalog.RetentionMode mode) {
        return RetentionMode.valueOf(mode.name());
    }

    static Optional<Retention> retention(ObjectLock lock) {
        return lock.mode() == null ? Optional.empty() : Optional.of(new Retention(toCatalog(lock.mode()),
                lock.retainUntil()));
    }

    // ---- objects

    static io.shardvault.coordinator.catalog.WriteCondition condition(WriteCondition c) {
        if (c.ifMatch() != null) {
            return io.shardvault.coordinator.catalog.WriteCondition.ifMatch(Etags.unquote(c.ifMatch()));
        }
        return c.ifNoneMatchAny() ? io.shardvault.coordinator.catalog.WriteCondition.IF_NONE_MATCH_ANY
                : io.shardvault.coordinator.catalog.WriteCondition.NONE;
    }

    static io.shardvault.coordinator.catalog.ObjectMetadata toCatalog(ObjectMetadata m, Checksum checksum) {
        Map<String, String> system = new HashMap<>();
        putIfSet(system, CACHE_CONTROL, m.cacheControl());
        putIfSet(system, CONTENT_DISPOSITION, m.contentDisposition());
        putIfSet(system, CONTENT_ENCODING, m.contentEncoding());
        putIfSet(system, CONTENT_LANGUAGE, m.contentLanguage());
        putIfSet(system, EXPIRES, m.expires());
        return new io.shardvault.coordinator.catalog.ObjectMetadata(m.contentType() == null ? "" : m.contentType(),
                system, m.userMetadata(), checksumMap(checksum), checksum == null ? "" : checksum.type().name());
    }

    private static void putIfSet(Map<String, String> map, String key, String value) {
        if (value != null) {
            map.put(key, value);
        }
    }

    private static ObjectMetadata fromCatalog(io.shardvault.coordinator.catalog.ObjectMetadata m) {
        Function<String, String> sys = m.system()::get;
        return new ObjectMetadata(m.contentType().isEmpty() ? null : m.contentType(), sys.apply(CACHE_CONTROL),
                sys.apply(CONTENT_DISPOSITION), sys.apply(CONTENT_ENCODING), sys.apply(CONTENT_LANGUAGE),
                sys.apply(EXPIRES), m.user());
    }

    private static Optional<Checksum> checksum(io.shardvault.coordinator.catalog.ObjectMetadata m) {
        if (m.checksums().isEmpty() || m.checksumType().isEmpty()) {
            return Optional.empty();
        }
        Map.Entry<String, String> e = m.checksums().entrySet().iterator().next();
        ChecksumAlgorithm algorithm = ChecksumAlgorithm.fromS3Name(e.getKey());
        return algorithm == null ? Optional.empty()
                : Optional.of(new Checksum(algorithm, e.getValue(), ChecksumType.valueOf(m.checksumType())));
    }

    /** The catalog's checksums map: the one checksum by algorithm, or none. */
    static Map<String, String> checksumMap(Checksum checksum) {
        return checksum == null ? Map.of() : Map.of(checksum.algorithm().name(), checksum.value());
    }

    static String versionOrNull(String versionId) {
        return versionId == null || ObjectVersion.NULL_VERSION_ID.equals(versionId) ? null : versionId;
    }

    static ObjectInfo objectInfo(ObjectVersion v) {
        ObjectLock lock = new ObjectLock(v.retention().map(r -> fromCatalog(r.mode())).orElse(null),
                v.retention().map(Retention::retainUntil).orElse(null), v.legalHold());
        int partsCount = v.parts().size() == 1 && v.parts().get(0).partNumber() == 0 ? 0 : v.parts().size();
        return new ObjectInfo(v.key(), versionOrNull(v.versionId()), v.size(), v.etag(), v.lastModified(),
                fromCatalog(v.metadata()), checksum(v.metadata()).orElse(null), partsCount, lock, v.deleteMarker());
    }

    /** A single-file version (PutObject, CopyObject) of {@code file}, whose MD5 is {@code etag}. */
    static PutObjectVersion putVersion(String bucket, String key, StoredFile file, String etag, ObjectMetadata metadata,
                                       Checksum checksum, CannedAcl acl, WriteCondition condition, ObjectLock lock) {
        return new PutObjectVersion(bucket, key, file.size(), etag,
                toCatalog(metadata, checksum).withCannedAcl(acl.headerValue()),
                List.of(new FilePart(0, etag, StoredFiles.toRef(file))), condition(condition), retention(lock),
                lock.legalHold());
    }

    static WriteResult writeResult(PutResult r, Checksum checksum, long size) {
        return new WriteResult(r.etag(), versionOrNull(r.versionId()), r.lastModified(), checksum, size);
    }

    static DeleteObjectVersion deleteRequest(String bucket, String key, String versionId, boolean bypass) {
        return new DeleteObjectVersion(bucket, key, Optional.ofNullable(versionId), bypass);
    }

    static DeleteResult deleteResult(String key, io.shardvault.coordinator.catalog.DeleteResult r) {
        return new DeleteResult(key, r.versionId().map(CatalogMapper::versionOrNull).orElse(null), r.deleteMarker());
    }

    static DeleteOutcome deleteOutcome(ObjectIdentifier target, io.shardvault.coordinator.catalog.DeleteOutcome o) {
        return o.result().map(r -> DeleteOutcome.deleted(target, deleteResult(target.key(), r)))
                .orElseGet(() -> DeleteOutcome.failed(target, new ObjectStoreException(o.error().get(),
                        o.errorMessage())));
    }

    // ---- listings

    static ListObjectsQuery objectsQuery(ListObjectsRequest request) {
        return new ListObjectsQuery(request.bucket(), request.prefix(), emptyIfNull(request.delimiter()),
                emptyIfNull(request.after()), Optional.empty(), request.maxKeys());
    }

    static ListObjectsPage objectsPage(ObjectListing listing, ListObjectsRequest request, String owner) {
        return new ListObjectsPage(listing.objects().stream().map(v -> new ObjectSummary(v.key(), v.size(),
                v.etag(), v.lastModified(), owner, checksum(v.metadata()).map(Checksum::algorithm).orElse(null),
                checksum(v.metadata()).map(Checksum::type).orElse(null))).toList(), listing.commonPrefixes(),
                listing.truncated() && request.maxKeys() > 0, listing.nextMarker().orElse(null));
    }

    static ListVersionsQuery versionsQuery(ListVersionsRequest request) {
        String keyMarker = emptyIfNull(request.keyMarker());
        return new ListVersionsQuery(request.bucket(), request.prefix(), emptyIfNull(request.delimiter()), keyMarker,
                keyMarker.isEmpty() || request.versionIdMarker() == null ? "" : request.versionIdMarker(),
                request.maxKeys());
    }

    static VersionsPage versionsPage(VersionListing listing, String owner) {
        return new VersionsPage(listing.versions().stream().map(v -> new VersionSummary(v.key(), v.versionId(),
                v.latest(), v.deleteMarker(), v.size(), v.etag(), v.lastModified(), owner)).toList(),
                listing.commonPrefixes(), listing.truncated(), listing.truncated() ? listing.nextKeyMarker() : null,
                listing.truncated() ? emptyToNull(listing.nextVersionIdMarker()) : null);
    }

    static String emptyIfNull(String s) {
        return s == null ? "" : s;
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    // ---- multipart

    /** An upload's metadata: the object's, plus the checksum algorithm and type its parts must carry. */
    static io.shardvault.coordinator.catalog.ObjectMetadata uploadMetadata(CreateMultipartUploadRequest request) {
        io.shardvault.coordinator.catalog.ObjectMetadata metadata = toCatalog(request.metadata(), null);
        Map<String, String> system = new HashMap<>(metadata.system());
        if (request.checksumAlgorithm() != null) {
            system.put(UPLOAD_ALGORITHM, request.checksumAlgorithm().name());
        }
        if (request.checksumType() != null) {
            system.put(UPLOAD_CHECKSUM_TYPE, request.checksumType().name());
        }
        return new io.shardvault.coordinator.catalog.ObjectMetadata(metadata.contentType(), system, metadata.user(),
                metadata.checksums(), metadata.checksumType()).withCannedAcl(request.acl().headerValue());
    }

    static UploadInfo uploadInfo(MultipartUpload u, String owner) {
        Map<String, String> system = u.metadata().system();
        String algorithm = system.get(UPLOAD_ALGORITHM);
        String type = system.get(UPLOAD_CHECKSUM_TYPE);
        return new UploadInfo(u.bucket(), u.key(), u.uploadId(), u.initiated(), owner,
                algorithm == null ? null : ChecksumAlgorithm.valueOf(algorithm),
                type == null ? null : ChecksumType.valueOf(type));
    }

    static PartInfo partInfo(UploadedPart p) {
        Checksum checksum = p.checksums().entrySet().stream().findFirst()
                .map(e -> ChecksumAlgorithm.fromS3Name(e.getKey()) == null ? null
                        : new Checksum(ChecksumAlgorithm.fromS3Name(e.getKey()), e.getValue(),
                        ChecksumType.FULL_OBJECT)).orElse(null);
        return new PartInfo(p.partNumber(), p.etag(), p.file().size(), p.lastModified(), checksum);
    }

    static List<io.shardvault.coordinator.catalog.CompletedPart> completedParts(
            List<io.shardvault.s3.CompletedPart> parts) {
        return parts.stream().map(p -> new io.shardvault.coordinator.catalog.CompletedPart(p.partNumber(),
                Etags.unquote(p.etag()))).toList();
    }

    static PartsPage partsPage(PartListing listing, String owner) {
        return new PartsPage(uploadInfo(listing.upload(), owner),
                listing.parts().stream().map(CatalogMapper::partInfo).toList(), listing.truncated(),
                listing.nextPartNumberMarker());
    }

    static UploadsPage uploadsPage(UploadListing listing, String owner) {
        return new UploadsPage(listing.uploads().stream().map(u -> uploadInfo(u, owner)).toList(), List.of(),
                listing.truncated(), listing.nextKeyMarker(), listing.nextUploadIdMarker());
    }
}
