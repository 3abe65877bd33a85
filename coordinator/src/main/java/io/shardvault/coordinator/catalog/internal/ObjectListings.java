package io.shardvault.coordinator.catalog.internal;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.Bucket;
import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.catalog.ListObjectsQuery;
import io.shardvault.coordinator.catalog.ListVersionsQuery;
import io.shardvault.coordinator.catalog.ObjectListing;
import io.shardvault.coordinator.catalog.ObjectVersion;
import io.shardvault.coordinator.catalog.VersionListing;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.rocksdb.RocksIterator;

/**
 * The listings of objects and of their versions (ListObjects v1/v2, ListObjectVersions) over
 * {@link Table#VERSIONS}: their queries, pages and commands. A page seeks from key to key and never
 * scans a bucket; see docs/CATALOG.md, "Listing".
 *
 * <p>Reads only; stateless, as every catalog subject.
 */
final class ObjectListings {
    private ObjectListings() {
    }

    /** The common prefix {@code key} rolls up into, or null. */
    private static byte[] commonPrefix(byte[] key, byte[] prefix, byte[] delimiter) {
        if (delimiter.length == 0) {
            return null;
        }
        outer:
        for (int i = prefix.length; i + delimiter.length <= key.length; i++) {
            for (int j = 0; j < delimiter.length; j++) {
                if (key[i + j] != delimiter[j]) {
                    continue outer;
                }
            }
            return Arrays.copyOf(key, i + delimiter.length);
        }
        return null;
    }

    static String encodeToken(String after) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(Keys.utf8(after));
    }

    static String decodeToken(String token) throws CatalogException {
        try {
            return new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "invalid continuation token");
        }
    }

    static ObjectListing listObjects(RocksCatalogStore.Reads r, ListObjectsQuery q) throws CatalogException {
        Bucket b = Buckets.bucket(r, q.bucket());
        String markerString = q.continuationToken().isPresent() ? decodeToken(q.continuationToken().get())
                : q.startAfter();
        byte[] marker = Keys.utf8(markerString);
        byte[] prefix = Keys.utf8(q.prefix());
        byte[] delimiter = Keys.utf8(q.delimiter());
        byte[] scope = Keys.keyPrefix(b.id(), prefix);
        byte[] start = scope;
        if (!markerString.isEmpty()) {
            byte[] after = Keys.afterKey(b.id(), marker);
            if (Keys.compare(after, start) > 0) {
                start = after;
            }
        }
        List<ObjectVersion> objects = new ArrayList<>();
        List<String> prefixes = new ArrayList<>();
        String last = "";
        boolean truncated = false;
        try (RocksIterator it = r.iterator(Table.VERSIONS)) {
            it.seek(start);
            while (it.isValid() && Keys.startsWith(it.key(), scope)) {
                byte[] dbKey = it.key();
                byte[] key = Keys.objectKeyOf(dbKey);
                byte[] cp = commonPrefix(key, prefix, delimiter);
                if (cp != null && Keys.compare(cp, marker) <= 0 && !markerString.isEmpty()) {
                    it.seek(Keys.successor(Keys.keyPrefix(b.id(), cp)));
                    continue;
                }
                StoredVersion newest = StoredVersion.decode(it.value());
                if (newest.deleteMarker()) {
                    it.seek(Keys.afterKey(b.id(), key));
                    continue;
                }
                if (objects.size() + prefixes.size() >= q.maxKeys()) {
                    truncated = true;
                    break;
                }
                if (cp != null) {
                    last = new String(cp, StandardCharsets.UTF_8);
                    prefixes.add(last);
                    it.seek(Keys.successor(Keys.keyPrefix(b.id(), cp)));
                } else {
                    last = new String(key, StandardCharsets.UTF_8);
                    objects.add(newest.toPublic(q.bucket(), last, true));
                    it.seek(Keys.afterKey(b.id(), key));
                }
            }
        }
        return new ObjectListing(objects, prefixes, truncated,
                truncated ? Optional.of(encodeToken(last)) : Optional.empty(),
                truncated ? Optional.of(last) : Optional.empty());
    }

    static VersionListing listVersions(RocksCatalogStore.Reads r, ListVersionsQuery q) throws CatalogException {
        Bucket b = Buckets.bucket(r, q.bucket());
        byte[] marker = Keys.utf8(q.keyMarker());
        byte[] prefix = Keys.utf8(q.prefix());
        byte[] delimiter = Keys.utf8(q.delimiter());
        byte[] scope = Keys.keyPrefix(b.id(), prefix);
        byte[] start = scope;
        byte[] skipExact = null;
        boolean midKey = false;
        if (!q.keyMarker().isEmpty()) {
            byte[] after = Keys.afterKey(b.id(), marker);
            if (!q.versionIdMarker().isEmpty()) {
                StoredVersion mv = ObjectVersions.version(r, b.id(), marker, q.versionIdMarker());
                if (mv != null) {
                    after = Keys.versionKey(b.id(), marker, mv.seq());
                    skipExact = after;
                    midKey = true;
                }
            }
            if (Keys.compare(after, start) > 0) {
                start = after;
            }
        }
        List<ObjectVersion> versions = new ArrayList<>();
        List<String> prefixes = new ArrayList<>();
        String lastKey = "";
        String lastVersion = "";
        boolean truncated = false;
        byte[] previousKey = midKey ? marker : null;
        try (RocksIterator it = r.iterator(Table.VERSIONS)) {
            it.seek(start);
            if (skipExact != null && it.isValid() && Arrays.equals(it.key(), skipExact)) {
                it.next();
            }
            while (it.isValid() && Keys.startsWith(it.key(), scope)) {
                byte[] dbKey = it.key();
                byte[] key = Keys.objectKeyOf(dbKey);
                byte[] cp = commonPrefix(key, prefix, delimiter);
                if (cp != null && !q.keyMarker().isEmpty() && Keys.compare(cp, marker) <= 0) {
                    it.seek(Keys.successor(Keys.keyPrefix(b.id(), cp)));
                    continue;
                }
                if (versions.size() + prefixes.size() >= q.maxKeys()) {
                    truncated = true;
                    break;
                }
                if (cp != null) {
                    lastKey = new String(cp, StandardCharsets.UTF_8);
                    lastVersion = "";
                    prefixes.add(lastKey);
                    it.seek(Keys.successor(Keys.keyPrefix(b.id(), cp)));
                    previousKey = null;
                    continue;
                }
                boolean latest = previousKey == null || !Arrays.equals(previousKey, key);
                StoredVersion v = StoredVersion.decode(it.value());
                lastKey = new String(key, StandardCharsets.UTF_8);
                lastVersion = v.versionId();
                versions.add(v.toPublic(q.bucket(), lastKey, latest));
                previousKey = key;
                it.next();
            }
        }
        return new VersionListing(versions, prefixes, truncated, truncated ? lastKey : "",
                truncated ? lastVersion : "");
    }

    // ---- encodings: the queries and pages ----

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
        Codec.list(w, l.objects(), ObjectVersions::objectVersion);
        Codec.list(w, l.commonPrefixes(), Wire.Writer::str);
        w.bool(l.truncated()).str(l.nextContinuationToken().orElse("")).str(l.nextMarker().orElse(""));
    }

    static ObjectListing objectListing(Wire.Reader r) {
        List<ObjectVersion> objects = Codec.list(r, ObjectVersions::objectVersion);
        List<String> prefixes = Codec.list(r, Wire.Reader::str);
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
        Codec.list(w, l.versions(), ObjectVersions::objectVersion);
        Codec.list(w, l.commonPrefixes(), Wire.Writer::str);
        w.bool(l.truncated()).str(l.nextKeyMarker()).str(l.nextVersionIdMarker());
    }

    static VersionListing versionListing(Wire.Reader r) {
        return new VersionListing(Codec.list(r, ObjectVersions::objectVersion), Codec.list(r, Wire.Reader::str), r.bool(), r.str(),
                r.str());
    }

    // ---- commands: each client call (its fields and reply) beside the peer's handler ----

    /** LIST_OBJECTS: {@code ListObjectsQuery} → ObjectListing. */
    static Call<ObjectListing> listObjects(ListObjectsQuery query) {
        Objects.requireNonNull(query, "query");
        return new Call<>(Op.LIST_OBJECTS, w -> listObjectsQuery(w, query), ObjectListings::objectListing);
    }

    static void answerListObjects(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) throws CatalogException {
        objectListing(out, listObjects(r, listObjectsQuery(in)));
    }

    /** LIST_VERSIONS: {@code ListVersionsQuery} → VersionListing. */
    static Call<VersionListing> listVersions(ListVersionsQuery query) {
        Objects.requireNonNull(query, "query");
        return new Call<>(Op.LIST_VERSIONS, w -> listVersionsQuery(w, query), ObjectListings::versionListing);
    }

    static void answerListVersions(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) throws CatalogException {
        versionListing(out, listVersions(r, listVersionsQuery(in)));
    }
}
