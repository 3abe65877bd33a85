package io.shardvault.coordinator.catalog.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.FileLayout;
import io.shardvault.coordinator.catalog.FilePart;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.catalog.ObjectMetadata;
import io.shardvault.coordinator.catalog.ObjectVersion;
import io.shardvault.coordinator.catalog.PutObjectVersion;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Canned ACLs in the catalog (issue #17): log entries and stored versions written before ACLs existed read
 * as private; ACLs set at creation or in place survive a restart of the store; a deleted bucket forgets its ACL.
 */
@Timeout(60)
class AclCommandsTest {
    private static final long T0 = 1_800_000_000_000L;
    private static final FileLayout LAYOUT = new FileLayout(2, 1, 1024);

    @TempDir
    Path dir;

    private long index;

    private byte[] apply(RocksCatalogStore store, Op op, Consumer<Wire.Writer> body) throws Exception {
        index++;
        Wire.Writer w = new Wire.Writer().u8(Codec.FORMAT).i64(T0 + index).u8(op.code).i64(0).i64(0);
        body.accept(w);
        byte[] result = EntryApplier.apply(store, 1, index, w.toByteArray(), () -> { });
        assertThat(result[0]).as("op %s answered an error", op).isEqualTo((byte) 0);
        return result;
    }

    private static String bucketAcl(RocksCatalogStore store, String bucket) throws Exception {
        try (RocksCatalogStore.View v = store.view()) {
            return AclCommands.bucketAcl(v, bucket);
        }
    }

    private static ObjectVersion object(RocksCatalogStore store, String bucket, String key) throws Exception {
        try (RocksCatalogStore.View v = store.view()) {
            return ObjectVersions.getObject(v, bucket, key, Optional.empty());
        }
    }

    private static PutObjectVersion put(String bucket, String key, ObjectMetadata metadata, long fileId) {
        return PutObjectVersion.of(bucket, key, "e" + fileId, metadata, new FileRef(1, fileId, 1, LAYOUT, List.of()));
    }

    @Test
    void entriesLoggedBeforeAclsApplyAsPrivate() throws Exception {
        try (RocksCatalogStore store = RocksCatalogStore.open(dir)) {
            // CREATE_BUCKET as format 1 logged it before ACLs: name, owner, lock, and nothing more.
            apply(store, Op.CREATE_BUCKET, w -> w.str("old").str("alice").bool(false));
            assertThat(bucketAcl(store, "old")).isEqualTo(Catalog.PRIVATE_ACL);
            ObjectMetadata plain = new ObjectMetadata("text/plain", Map.of("Cache-Control", "no-cache"), Map.of(),
                    Map.of(), "");
            apply(store, Op.PUT_OBJECT, w -> ObjectVersions.putRequest(w, put("old", "k", plain, 1)));
            assertThat(object(store, "old", "k").metadata().cannedAcl()).isEqualTo(Catalog.PRIVATE_ACL);
        }
    }

    @Test
    void aVersionStoredInTheOldLayoutReadsAsPrivateAndTakesAnAclInPlace() throws Exception {
        // The StoredVersion value layout of format 1, written field by field as builds before ACLs wrote it.
        Wire.Writer w = new Wire.Writer().u8(1).i64(7).bool(true).bool(false).i64(1).str("etag").i64(T0);
        w.str("text/plain").i32(1).str("Cache-Control").str("no-cache").i32(1).str("color").str("blue").i32(0)
                .str("");
        w.i32(1).u16(0).str("etag").i32(1).i64(99).i64(1).u8(2).u8(1).i32(1024).i32(0);
        w.u8(0).bool(false);
        StoredVersion old = StoredVersion.decode(w.toByteArray());
        assertThat(old.metadata().cannedAcl()).isEqualTo(Catalog.PRIVATE_ACL);
        assertThat(old.metadata().user()).containsEntry("color", "blue");

        try (RocksCatalogStore store = RocksCatalogStore.open(dir)) {
            apply(store, Op.CREATE_BUCKET, x -> x.str("bkt").str("alice").bool(false).str(Catalog.PRIVATE_ACL));
            int bucketId;
            try (RocksCatalogStore.View v = store.view()) {
                bucketId = Buckets.bucket(v, "bkt").id();
            }
            try (RocksCatalogStore.Txn txn = store.begin()) {
                txn.put(Table.VERSIONS, Keys.versionKey(bucketId, Keys.utf8("k"), old.seq()), w.toByteArray());
                txn.commit(1, ++index);
            }
            assertThat(object(store, "bkt", "k").metadata().cannedAcl()).isEqualTo(Catalog.PRIVATE_ACL);
            apply(store, Op.SET_OBJECT_ACL, x -> {
                x.str("bkt").str("k");
                Codec.optional(x, Optional.of(ObjectVersion.NULL_VERSION_ID));
                x.str("public-read");
            });
            ObjectVersion changed = object(store, "bkt", "k");
            assertThat(changed.metadata().cannedAcl()).isEqualTo("public-read");
            assertThat(changed.metadata().system()).containsEntry("Cache-Control", "no-cache");
            assertThat(changed.metadata().user()).containsEntry("color", "blue");
            assertThat(changed.parts()).extracting(FilePart::file).extracting(FileRef::fileId).containsExactly(99L);
        }
    }

    @Test
    void aclsSurviveARestartAndGoWithTheirBucket() throws Exception {
        try (RocksCatalogStore store = RocksCatalogStore.open(dir)) {
            apply(store, Op.CREATE_BUCKET, w -> w.str("pub").str("alice").bool(false).str("public-read-write"));
            apply(store, Op.CREATE_BUCKET, w -> w.str("later").str("alice").bool(false).str(Catalog.PRIVATE_ACL));
            apply(store, Op.SET_BUCKET_ACL, w -> w.str("later").str("authenticated-read"));
            apply(store, Op.PUT_OBJECT, w -> ObjectVersions.putRequest(w, put("pub", "k",
                    ObjectMetadata.EMPTY.withCannedAcl("public-read"), 1)));
        }
        try (RocksCatalogStore store = RocksCatalogStore.open(dir)) {
            assertThat(bucketAcl(store, "pub")).isEqualTo("public-read-write");
            assertThat(bucketAcl(store, "later")).isEqualTo("authenticated-read");
            assertThat(object(store, "pub", "k").metadata().cannedAcl()).isEqualTo("public-read");

            apply(store, Op.SET_BUCKET_ACL, w -> w.str("later").str(Catalog.PRIVATE_ACL));
            assertThat(bucketAcl(store, "later")).isEqualTo(Catalog.PRIVATE_ACL);
            apply(store, Op.DELETE_OBJECT, w -> {
                w.str("pub").str("k");
                Codec.optional(w, Optional.empty());
                w.bool(false);
            });
            apply(store, Op.DELETE_BUCKET, w -> w.str("pub"));
            apply(store, Op.CREATE_BUCKET, w -> w.str("pub").str("alice").bool(false).str(Catalog.PRIVATE_ACL));
            assertThat(bucketAcl(store, "pub")).isEqualTo(Catalog.PRIVATE_ACL);

            index++;
            byte[] bad = EntryApplier.apply(store, 1, index, new Wire.Writer().u8(Codec.FORMAT).i64(T0).u8(
                    Op.SET_BUCKET_ACL.code).i64(0).i64(0).str("pub").str("Public Read").toByteArray(), () -> { });
            assertThat(new Wire.Reader(bad, 1, 2).u16()).isEqualTo(ErrorCode.INVALID_ARGUMENT.wire());
        }
    }
}
