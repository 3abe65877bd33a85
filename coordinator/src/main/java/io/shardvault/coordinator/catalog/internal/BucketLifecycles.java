package io.shardvault.coordinator.catalog.internal;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.Bucket;
import io.shardvault.coordinator.catalog.CatalogException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * Buckets' lifecycle configurations (issue #24): a row of {@link Table#COUNTERS},
 * {@code bucketLifecycle/<bucketId>} → the UTF-8 document the S3 layer validated, kept the way a bucket's
 * quota and ACL are and removed with the bucket. The catalog never interprets it (the S3 layer and the
 * expirer do), so no record's layout changes and stores written before lifecycles existed read as "none".
 *
 * <p>Deterministic and stateless, as every catalog subject.
 */
final class BucketLifecycles {
    /** Far above S3's own documents (1,000 rules of a few hundred bytes): a bound on one log entry. */
    static final int MAX_DOCUMENT_BYTES = 1 << 20;

    private BucketLifecycles() {
    }

    private static byte[] key(int bucketId) {
        return Keys.utf8("bucketLifecycle/" + bucketId);
    }

    static void set(Entry e, String bucket, Optional<String> document) throws CatalogException {
        Bucket b = Buckets.bucket(e.txn(), bucket);
        if (document.isEmpty()) {
            e.txn().delete(Table.COUNTERS, key(b.id()));
            return;
        }
        byte[] bytes = document.get().getBytes(StandardCharsets.UTF_8);
        if (bytes.length == 0 || bytes.length > MAX_DOCUMENT_BYTES) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "a lifecycle configuration must be 1.."
                    + MAX_DOCUMENT_BYTES + " bytes: " + bytes.length);
        }
        e.txn().put(Table.COUNTERS, key(b.id()), bytes);
    }

    static Optional<String> get(RocksCatalogStore.Reads r, String bucket) throws CatalogException {
        byte[] v = r.get(Table.COUNTERS, key(Buckets.bucket(r, bucket).id()));
        return v == null ? Optional.empty() : Optional.of(new String(v, StandardCharsets.UTF_8));
    }

    /** Forgets a deleted bucket's configuration. */
    static void forget(Entry e, Bucket b) {
        e.txn().delete(Table.COUNTERS, key(b.id()));
    }

    // ---- commands: each client call (its fields and reply) beside the peer's handler ----

    /** SET_BUCKET_LIFECYCLE: {@code str bucket | optional str document (absent removes it)} → nothing. */
    static Call<Void> setLifecycle(String bucket, Optional<String> document) {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(document, "document");
        return Call.of(Op.SET_BUCKET_LIFECYCLE, w -> {
            w.str(bucket);
            Codec.optional(w, document);
        });
    }

    static void applySetLifecycle(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        set(e, in.str(), Codec.optional(in));
    }

    /** GET_BUCKET_LIFECYCLE: {@code str bucket} → {@code optional str document}. */
    static Call<Optional<String>> getLifecycle(String bucket) {
        Objects.requireNonNull(bucket, "bucket");
        return new Call<>(Op.GET_BUCKET_LIFECYCLE, w -> w.str(bucket), Codec::optional);
    }

    static void answerGetLifecycle(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) throws CatalogException {
        Codec.optional(out, get(r, in.str()));
    }
}
