package io.shardvault.coordinator.catalog.internal;

import io.shardvault.coordinator.catalog.FilePart;
import io.shardvault.coordinator.catalog.ObjectMetadata;
import io.shardvault.coordinator.catalog.ObjectVersion;
import io.shardvault.coordinator.catalog.Retention;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A version as stored in {@link Table#VERSIONS}: bucket and key live in the RocksDB key, the
 * rest here.
 *
 * <pre>
 *  u8 format (1) | u64 seq | bool null | bool deleteMarker | i64 size | str etag | i64 lastModified ms
 *  | metadata | list&lt;FilePart&gt; | retention | bool legalHold
 * </pre>
 *
 * @param seq the Raft log index that wrote it: its place among the key's versions
 */
record StoredVersion(long seq, boolean nullVersion, boolean deleteMarker, long size, String etag,
                     Instant lastModified, ObjectMetadata metadata, List<FilePart> parts,
                     Optional<Retention> retention, boolean legalHold) {

    String versionId() {
        return nullVersion ? ObjectVersion.NULL_VERSION_ID : Keys.versionId(seq);
    }

    ObjectVersion toPublic(String bucket, String key, boolean latest) {
        return new ObjectVersion(bucket, key, versionId(), deleteMarker, latest, size, etag, lastModified, metadata,
                parts, retention, legalHold);
    }

    StoredVersion withMetadata(ObjectMetadata newMetadata) {
        return new StoredVersion(seq, nullVersion, deleteMarker, size, etag, lastModified, newMetadata, parts,
                retention, legalHold);
    }

    StoredVersion withLock(Optional<Retention> newRetention, boolean newLegalHold) {
        return new StoredVersion(seq, nullVersion, deleteMarker, size, etag, lastModified, metadata, parts,
                newRetention, newLegalHold);
    }

    byte[] encode() {
        Wire.Writer w = new Wire.Writer(128);
        w.u8(Codec.FORMAT).i64(seq).bool(nullVersion).bool(deleteMarker).i64(size).str(etag);
        Codec.instant(w, lastModified);
        Codec.metadata(w, metadata);
        Codec.list(w, parts, Codec::filePart);
        Codec.retention(w, retention);
        w.bool(legalHold);
        return w.toByteArray();
    }

    static StoredVersion decode(byte[] bytes) {
        Wire.Reader r = new Wire.Reader(bytes);
        int format = r.u8();
        if (format != Codec.FORMAT) {
            throw new IllegalStateException("stored version format " + format + " unknown");
        }
        return new StoredVersion(r.i64(), r.bool(), r.bool(), r.i64(), r.str(), Codec.instant(r), Codec.metadata(r),
                Codec.list(r, Codec::filePart), Codec.retention(r), r.bool());
    }
}
