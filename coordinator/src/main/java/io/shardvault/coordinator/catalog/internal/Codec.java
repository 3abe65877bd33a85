package io.shardvault.coordinator.catalog.internal;

import io.shardvault.coordinator.catalog.AccessKey;
import io.shardvault.coordinator.catalog.Bucket;
import io.shardvault.coordinator.catalog.CompletedPart;
import io.shardvault.coordinator.catalog.FileDeletion;
import io.shardvault.coordinator.catalog.FileIdRange;
import io.shardvault.coordinator.catalog.FileLayout;
import io.shardvault.coordinator.catalog.FilePart;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.catalog.ListObjectsQuery;
import io.shardvault.coordinator.catalog.ListVersionsQuery;
import io.shardvault.coordinator.catalog.MultipartUpload;
import io.shardvault.coordinator.catalog.ObjectListing;
import io.shardvault.coordinator.catalog.ObjectMetadata;
import io.shardvault.coordinator.catalog.ObjectVersion;
import io.shardvault.coordinator.catalog.PartListing;
import io.shardvault.coordinator.catalog.PodInfo;
import io.shardvault.coordinator.catalog.PodState;
import io.shardvault.coordinator.catalog.PodStatus;
import io.shardvault.coordinator.catalog.PutObjectVersion;
import io.shardvault.coordinator.catalog.PutResult;
import io.shardvault.coordinator.catalog.DeleteObjectVersion;
import io.shardvault.coordinator.catalog.DeleteResult;
import io.shardvault.coordinator.catalog.Retention;
import io.shardvault.coordinator.catalog.RetentionMode;
import io.shardvault.coordinator.catalog.StashInfo;
import io.shardvault.coordinator.catalog.UploadListing;
import io.shardvault.coordinator.catalog.UploadedPart;
import io.shardvault.coordinator.catalog.VaultInfo;
import io.shardvault.coordinator.catalog.VersionListing;
import io.shardvault.coordinator.catalog.VersioningState;
import io.shardvault.coordinator.catalog.WriteCondition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Encodes the catalog's records for the Raft log, for results and for RocksDB values. One
 * encoding serves all three, so a record written to the log is stored byte for byte as applied.
 * Field order is fixed; a change of any record's layout bumps {@link #FORMAT}.
 */
final class Codec {
    /** The encoding version carried by every log entry and stored record. */
    static final int FORMAT = 1;

    private Codec() {
    }

    static <T> void list(Wire.Writer w, List<T> items, BiConsumer<Wire.Writer, T> each) {
        w.i32(items.size());
        for (T t : items) {
            each.accept(w, t);
        }
    }

    static <T> List<T> list(Wire.Reader r, Function<Wire.Reader, T> each) {
        int n = r.i32();
        if (n < 0 || n > 10_000_000) {
            throw new IllegalArgumentException("bad list length " + n);
        }
        List<T> out = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            out.add(each.apply(r));
        }
        return out;
    }

    static void map(Wire.Writer w, Map<String, String> m) {
        w.i32(m.size());
        m.forEach((k, v) -> w.str(k).str(v));
    }

    static Map<String, String> map(Wire.Reader r) {
        int n = r.i32();
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            m.put(r.str(), r.str());
        }
        return m;
    }

    static void instant(Wire.Writer w, Instant t) {
        w.i64(t.toEpochMilli());
    }

    static Instant instant(Wire.Reader r) {
        return Instant.ofEpochMilli(r.i64());
    }

    static void layout(Wire.Writer w, FileLayout l) {
        w.u8(l.dataShards()).u8(l.parityShards()).i32(l.chunkBytes());
    }

    static FileLayout layout(Wire.Reader r) {
        return new FileLayout(r.u8(), r.u8(), r.i32());
    }

    static void fileRef(Wire.Writer w, FileRef f) {
        w.i32(f.vaultId()).i64(f.fileId()).i64(f.size());
        layout(w, f.layout());
        list(w, f.missingShards(), (ww, i) -> ww.u8(i));
    }

    static FileRef fileRef(Wire.Reader r) {
        return new FileRef(r.i32(), r.i64(), r.i64(), layout(r), list(r, Wire.Reader::u8));
    }

    static void filePart(Wire.Writer w, FilePart p) {
        w.u16(p.partNumber()).str(p.etag());
        fileRef(w, p.file());
    }

    static FilePart filePart(Wire.Reader r) {
        return new FilePart(r.u16(), r.str(), fileRef(r));
    }

    static void metadata(Wire.Writer w, ObjectMetadata m) {
        w.str(m.contentType());
        map(w, m.system());
        map(w, m.user());
        map(w, m.checksums());
        w.str(m.checksumType());
    }

    static ObjectMetadata metadata(Wire.Reader r) {
        return new ObjectMetadata(r.str(), map(r), map(r), map(r), r.str());
    }

    static void retention(Wire.Writer w, Optional<Retention> ret) {
        if (ret.isEmpty()) {
            w.u8(0);
        } else {
            w.u8(1 + ret.get().mode().ordinal());
            instant(w, ret.get().retainUntil());
        }
    }

    static Optional<Retention> retention(Wire.Reader r) {
        int m = r.u8();
        if (m == 0) {
            return Optional.empty();
        }
        return Optional.of(new Retention(RetentionMode.values()[m - 1], instant(r)));
    }

    static void condition(Wire.Writer w, WriteCondition c) {
        w.u8(c.kind().ordinal()).str(c.etag());
    }

    static WriteCondition condition(Wire.Reader r) {
        return new WriteCondition(WriteCondition.Kind.values()[r.u8()], r.str());
    }

    static void bucket(Wire.Writer w, Bucket b) {
        w.str(b.name()).i32(b.id()).str(b.ownerAccessKeyId());
        instant(w, b.createdAt());
        w.u8(b.versioning().ordinal()).bool(b.objectLockEnabled());
        w.u8(b.defaultRetentionMode().map(m -> 1 + m.ordinal()).orElse(0)).i32(b.defaultRetentionDays());
    }

    static Bucket bucket(Wire.Reader r) {
        String name = r.str();
        int id = r.i32();
        String owner = r.str();
        Instant created = instant(r);
        VersioningState v = VersioningState.values()[r.u8()];
        boolean lock = r.bool();
        int mode = r.u8();
        int days = r.i32();
        return new Bucket(name, id, owner, created, v, lock,
                mode == 0 ? Optional.empty() : Optional.of(RetentionMode.values()[mode - 1]), days);
    }

    static void objectVersion(Wire.Writer w, ObjectVersion v) {
        w.str(v.bucket()).str(v.key()).str(v.versionId()).bool(v.deleteMarker()).bool(v.latest()).i64(v.size())
                .str(v.etag());
        instant(w, v.lastModified());
        metadata(w, v.metadata());
        list(w, v.parts(), Codec::filePart);
        retention(w, v.retention());
        w.bool(v.legalHold());
    }

    static ObjectVersion objectVersion(Wire.Reader r) {
        return new ObjectVersion(r.str(), r.str(), r.str(), r.bool(), r.bool(), r.i64(), r.str(), instant(r),
                metadata(r), list(r, Codec::filePart), retention(r), r.bool());
    }

    static void putRequest(Wire.Writer w, PutObjectVersion p) {
        w.str(p.bucket()).str(p.key()).i64(p.size()).str(p.etag());
        metadata(w, p.metadata());
        list(w, p.parts(), Codec::filePart);
        condition(w, p.condition());
        retention(w, p.retention());
        w.bool(p.legalHold());
    }

    static PutObjectVersion putRequest(Wire.Reader r) {
        return new PutObjectVersion(r.str(), r.str(), r.i64(), r.str(), metadata(r), list(r, Codec::filePart),
                condition(r), retention(r), r.bool());
    }

    static void putResult(Wire.Writer w, PutResult p) {
        w.str(p.versionId()).str(p.etag());
        instant(w, p.lastModified());
        list(w, p.releasedFiles(), Codec::fileRef);
    }

    static PutResult putResult(Wire.Reader r) {
        return new PutResult(r.str(), r.str(), instant(r), list(r, Codec::fileRef));
    }

    static void deleteResult(Wire.Writer w, DeleteResult d) {
        w.str(d.versionId().orElse("")).bool(d.deleteMarker());
        list(w, d.releasedFiles(), Codec::fileRef);
    }

    static DeleteResult deleteResult(Wire.Reader r) {
        String v = r.str();
        return new DeleteResult(v.isEmpty() ? Optional.empty() : Optional.of(v), r.bool(), list(r, Codec::fileRef));
    }

    static void deleteRequest(Wire.Writer w, DeleteObjectVersion d) {
        w.str(d.bucket()).str(d.key());
        CommandDispatcher.optional(w, d.versionId());
        w.bool(d.bypassGovernanceRetention());
    }

    static DeleteObjectVersion deleteRequest(Wire.Reader r) {
        return new DeleteObjectVersion(r.str(), r.str(), CommandDispatcher.optional(r), r.bool());
    }

    static void listObjectsQuery(Wire.Writer w, ListObjectsQuery q) {
        w.str(q.bucket()).str(q.prefix()).str(q.delimiter()).str(q.startAfter())
                .str(q.continuationToken().orElse("")).bool(q.continuationToken().isPresent()).i32(q.maxKeys());
    }

    static ListObjectsQuery listObjectsQuery(Wire.Reader r) {
        String b = r.str();
        String p = r.str();
        String d = r.str();
        String s = r.str();
        String t = r.str();
        boolean hasToken = r.bool();
        return new ListObjectsQuery(b, p, d, s, hasToken ? Optional.of(t) : Optional.empty(), r.i32());
    }

    static void objectListing(Wire.Writer w, ObjectListing l) {
        list(w, l.objects(), Codec::objectVersion);
        list(w, l.commonPrefixes(), Wire.Writer::str);
        w.bool(l.truncated()).str(l.nextContinuationToken().orElse("")).str(l.nextMarker().orElse(""));
    }

    static ObjectListing objectListing(Wire.Reader r) {
        List<ObjectVersion> objects = list(r, Codec::objectVersion);
        List<String> prefixes = list(r, Wire.Reader::str);
        boolean truncated = r.bool();
        String token = r.str();
        String marker = r.str();
        return new ObjectListing(objects, prefixes, truncated,
                truncated ? Optional.of(token) : Optional.empty(), truncated ? Optional.of(marker) : Optional.empty());
    }

    static void listVersionsQuery(Wire.Writer w, ListVersionsQuery q) {
        w.str(q.bucket()).str(q.prefix()).str(q.delimiter()).str(q.keyMarker()).str(q.versionIdMarker())
                .i32(q.maxKeys());
    }

    static ListVersionsQuery listVersionsQuery(Wire.Reader r) {
        return new ListVersionsQuery(r.str(), r.str(), r.str(), r.str(), r.str(), r.i32());
    }

    static void versionListing(Wire.Writer w, VersionListing l) {
        list(w, l.versions(), Codec::objectVersion);
        list(w, l.commonPrefixes(), Wire.Writer::str);
        w.bool(l.truncated()).str(l.nextKeyMarker()).str(l.nextVersionIdMarker());
    }

    static VersionListing versionListing(Wire.Reader r) {
        return new VersionListing(list(r, Codec::objectVersion), list(r, Wire.Reader::str), r.bool(), r.str(),
                r.str());
    }

    static void upload(Wire.Writer w, MultipartUpload u) {
        w.str(u.bucket()).str(u.key()).str(u.uploadId());
        instant(w, u.initiated());
        metadata(w, u.metadata());
        retention(w, u.retention());
        w.bool(u.legalHold());
    }

    static MultipartUpload upload(Wire.Reader r) {
        return new MultipartUpload(r.str(), r.str(), r.str(), instant(r), metadata(r), retention(r), r.bool());
    }

    /**
     * A part: {@code u16 partNumber | str etag | fileRef | i64 lastModified [| map checksums]}. Part numbers
     * stop at 10,000, so the top bit of the u16 says whether the checksums map follows; parts recorded before
     * it existed decode with none.
     */
    static void part(Wire.Writer w, UploadedPart p) {
        boolean checksums = !p.checksums().isEmpty();
        w.u16(p.partNumber() | (checksums ? PART_HAS_CHECKSUMS : 0)).str(p.etag());
        fileRef(w, p.file());
        instant(w, p.lastModified());
        if (checksums) {
            map(w, p.checksums());
        }
    }

    static UploadedPart part(Wire.Reader r) {
        int number = r.u16();
        String etag = r.str();
        FileRef file = fileRef(r);
        Instant lastModified = instant(r);
        Map<String, String> checksums = (number & PART_HAS_CHECKSUMS) != 0 ? map(r) : Map.of();
        return new UploadedPart(number & ~PART_HAS_CHECKSUMS, etag, file, lastModified, checksums);
    }

    private static final int PART_HAS_CHECKSUMS = 0x8000;

    static void completedPart(Wire.Writer w, CompletedPart p) {
        w.i32(p.partNumber()).str(p.etag());
    }

    static CompletedPart completedPart(Wire.Reader r) {
        return new CompletedPart(r.i32(), r.str());
    }

    static void partListing(Wire.Writer w, PartListing l) {
        upload(w, l.upload());
        list(w, l.parts(), Codec::part);
        w.bool(l.truncated()).i32(l.nextPartNumberMarker());
    }

    static PartListing partListing(Wire.Reader r) {
        return new PartListing(upload(r), list(r, Codec::part), r.bool(), r.i32());
    }

    static void uploadListing(Wire.Writer w, UploadListing l) {
        list(w, l.uploads(), Codec::upload);
        w.bool(l.truncated()).str(l.nextKeyMarker()).str(l.nextUploadIdMarker());
    }

    static UploadListing uploadListing(Wire.Reader r) {
        return new UploadListing(list(r, Codec::upload), r.bool(), r.str(), r.str());
    }

    static void pod(Wire.Writer w, PodInfo p) {
        w.i32(p.vaultId()).u8(p.shardIndex()).str(p.host()).i32(p.port());
    }

    static PodInfo pod(Wire.Reader r) {
        return new PodInfo(r.i32(), r.u8(), r.str(), r.i32());
    }

    static void vault(Wire.Writer w, VaultInfo v) {
        w.i32(v.vaultId());
        layout(w, v.layout());
        w.i64(v.capacityBytes());
        list(w, v.pods(), Codec::pod);
    }

    static VaultInfo vault(Wire.Reader r) {
        return new VaultInfo(r.i32(), layout(r), r.i64(), list(r, Codec::pod));
    }

    /** The value of a {@link Table#POD_STATES} row, format 1. */
    static void podStatus(Wire.Writer w, PodStatus p) {
        w.u8(1).i32(p.vaultId()).u8(p.shardIndex()).u8(p.state().wire());
        instant(w, p.since());
    }

    static PodStatus podStatus(Wire.Reader r) {
        int format = r.u8();
        if (format != 1) {
            throw new IllegalArgumentException("unknown pod state format " + format);
        }
        return new PodStatus(r.i32(), r.u8(), PodState.ofWire(r.u8()), instant(r));
    }

    static void stash(Wire.Writer w, StashInfo s) {
        w.str(s.stashId()).str(s.host()).i32(s.port());
    }

    static StashInfo stash(Wire.Reader r) {
        return new StashInfo(r.str(), r.str(), r.i32());
    }

    static void accessKey(Wire.Writer w, AccessKey k) {
        w.str(k.accessKeyId()).str(k.secretKey()).str(k.owner()).bool(k.enabled()).bool(k.bypassGovernanceAllowed());
        instant(w, k.createdAt());
    }

    static AccessKey accessKey(Wire.Reader r) {
        return new AccessKey(r.str(), r.str(), r.str(), r.bool(), r.bool(), instant(r));
    }

    static void fileIdRange(Wire.Writer w, FileIdRange f) {
        w.i32(f.vaultId()).i64(f.first()).i32(f.count());
    }

    static FileIdRange fileIdRange(Wire.Reader r) {
        return new FileIdRange(r.i32(), r.i64(), r.i32());
    }

    static void fileDeletion(Wire.Writer w, FileDeletion d) {
        w.i64(d.id());
        fileRef(w, d.file());
    }

    static FileDeletion fileDeletion(Wire.Reader r) {
        return new FileDeletion(r.i64(), fileRef(r));
    }
}
