package io.shardvault.coordinator.catalog.internal;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.Bucket;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.catalog.ObjectVersion;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Canned ACLs (issue #17): the catalog keeps each bucket's and each version's canned ACL by its
 * {@code x-amz-acl} name, and never interprets it (the S3 layer decides what it grants).
 *
 * <ul>
 *   <li>A bucket's is a row of {@link Table#COUNTERS}, {@code bucketAcl/<bucketId>} → the UTF-8 name, kept
 *       the way a bucket's quota is and removed with the bucket; no row means {@code private}.</li>
 *   <li>A version's is its metadata's {@link io.shardvault.coordinator.catalog.ObjectMetadata#CANNED_ACL}
 *       system entry, written with the version (PutObject, CopyObject, a completed upload takes its upload's)
 *       and changed in place like a legal hold; no entry means {@code private}.</li>
 * </ul>
 * Neither changes a record's layout, so log entries, stored values and snapshots written before ACLs
 * existed read as {@code private} and {@link Codec#FORMAT} stays 1. {@code CREATE_BUCKET} entries end with
 * the ACL; one logged before ends early and creates a private bucket.
 *
 * <p>Deterministic and stateless, as every catalog subject.
 */
final class AclCommands {
    private static final Pattern ACL_NAME = Pattern.compile("[a-z][a-z-]{0,63}");

    private AclCommands() {
    }

    private static byte[] bucketAclKey(int bucketId) {
        return Keys.utf8("bucketAcl/" + bucketId);
    }

    private static String checked(String acl) throws CatalogException {
        if (!ACL_NAME.matcher(acl).matches()) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "bad canned ACL name '" + acl + "'");
        }
        return acl;
    }

    /** Sets a bucket's ACL (a new bucket's too); {@code private} is kept as no row. */
    static void setBucketAcl(Entry e, Bucket b, String acl) throws CatalogException {
        if (checked(acl).equals(Catalog.PRIVATE_ACL)) {
            e.txn().delete(Table.COUNTERS, bucketAclKey(b.id()));
        } else {
            e.txn().put(Table.COUNTERS, bucketAclKey(b.id()), acl.getBytes(StandardCharsets.UTF_8));
        }
    }

    static void setBucketAcl(Entry e, String bucket, String acl) throws CatalogException {
        setBucketAcl(e, Buckets.bucket(e.txn(), bucket), acl);
    }

    /** Forgets a deleted bucket's ACL. */
    static void forget(Entry e, Bucket b) {
        e.txn().delete(Table.COUNTERS, bucketAclKey(b.id()));
    }

    static String bucketAcl(RocksCatalogStore.Reads r, String bucket) throws CatalogException {
        byte[] v = r.get(Table.COUNTERS, bucketAclKey(Buckets.bucket(r, bucket).id()));
        return v == null ? Catalog.PRIVATE_ACL : new String(v, StandardCharsets.UTF_8);
    }

    /** Replaces one version's ACL in place; a delete marker has none. */
    static ObjectVersion setObjectAcl(Entry e, String bucketName, String key,
                                      Optional<String> versionId, String acl) throws CatalogException {
        checked(acl);
        Bucket b = Buckets.bucket(e.txn(), bucketName);
        byte[] k = ObjectVersions.keyBytes(key);
        StoredVersion v = versionId.isPresent() ? ObjectVersions.version(e.txn(), b.id(), k, versionId.get())
                : ObjectVersions.latest(e.txn(), b.id(), k);
        if (v == null || v.deleteMarker() && versionId.isEmpty()) {
            throw versionId.isPresent()
                    ? new CatalogException(ErrorCode.NO_SUCH_VERSION, "no version " + versionId.get() + " of " + key)
                    : new CatalogException(ErrorCode.NO_SUCH_KEY, "no key " + key);
        }
        if (v.deleteMarker()) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "a delete marker has no ACL");
        }
        StoredVersion nv = v.withMetadata(v.metadata().withCannedAcl(acl));
        ObjectVersions.putVersion(e, b.id(), k, nv);
        StoredVersion newest = ObjectVersions.latest(e.txn(), b.id(), k);
        return nv.toPublic(bucketName, key, newest != null && newest.seq() == nv.seq());
    }

    // ---- commands: each client call (its fields and reply) beside the peer's handler ----

    /** SET_BUCKET_ACL: {@code str bucket | str cannedAcl} → nothing. */
    static Call<Void> setBucketAcl(String bucket, String cannedAcl) {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(cannedAcl, "cannedAcl");
        return Call.of(Op.SET_BUCKET_ACL, w -> w.str(bucket).str(cannedAcl));
    }

    static void applySetBucketAcl(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        setBucketAcl(e, in.str(), in.str());
    }

    /** GET_BUCKET_ACL: {@code str bucket} → {@code str cannedAcl}. */
    static Call<String> getBucketAcl(String bucket) {
        Objects.requireNonNull(bucket, "bucket");
        return new Call<>(Op.GET_BUCKET_ACL, w -> w.str(bucket), Wire.Reader::str);
    }

    static void answerGetBucketAcl(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) throws CatalogException {
        out.str(bucketAcl(r, in.str()));
    }

    /** SET_OBJECT_ACL: {@code str bucket | str key | optional str versionId | str cannedAcl} → ObjectVersion. */
    static Call<ObjectVersion> setObjectAcl(String bucket, String key, Optional<String> versionId, String cannedAcl) {
        Objects.requireNonNull(cannedAcl, "cannedAcl");
        return new Call<>(Op.SET_OBJECT_ACL, w -> {
            w.str(bucket).str(key);
            Codec.optional(w, versionId);
            w.str(cannedAcl);
        }, ObjectVersions::objectVersion);
    }

    static void applySetObjectAcl(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        String b = in.str();
        String k = in.str();
        Optional<String> v = Codec.optional(in);
        ObjectVersions.objectVersion(out, setObjectAcl(e, b, k, v, in.str()));
    }
}
