package io.shardvault.coordinator.catalog.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.CompletedPart;
import io.shardvault.coordinator.catalog.FileLayout;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.catalog.MultipartUpload;
import io.shardvault.coordinator.catalog.ObjectMetadata;
import io.shardvault.coordinator.catalog.PutObjectVersion;
import io.shardvault.coordinator.catalog.RepairTask;
import io.shardvault.coordinator.catalog.VaultInfo;
import io.shardvault.coordinator.catalog.WriteCondition;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;

/**
 * The repair queue applied to a real store: enqueue merges, remove takes only the repaired shards, the
 * list pages in key order; a commit of a file with missing shards queues them; a checkpoint (a snapshot) carries it; a store from before the queue opens.
 */
@Timeout(60)
class RepairQueueTest {
    private static final long T0 = 1_800_000_000_000L;

    @TempDir
    Path dir;

    private long index;

    private byte[] apply(RocksCatalogStore store, long millis, Call<?> call) throws Exception {
        index++;
        Wire.Writer w = new Wire.Writer().u8(Codec.FORMAT).i64(millis).u8(call.op().code).i64(0).i64(0);
        call.fields().accept(w);
        return EntryApplier.apply(store, 1, index, w.toByteArray(), () -> { });
    }

    private static <T> T reply(byte[] result, Call<T> call) {
        Wire.Reader r = new Wire.Reader(result);
        assertThat(r.u8()).as("an error: %s", new String(result, StandardCharsets.UTF_8)).isZero();
        T value = call.reply().apply(r);
        r.expectEnd();
        return value;
    }

    private <T> T applied(RocksCatalogStore store, long millis, Call<T> call) throws Exception {
        return reply(apply(store, millis, call), call);
    }

    private static ErrorCode refusal(byte[] result) {
        Wire.Reader r = new Wire.Reader(result);
        assertThat(r.u8()).isEqualTo(1);
        return ErrorCode.fromWire(r.u16());
    }

    private static List<RepairTask> list(RocksCatalogStore store, int vaultId, long fileId, int limit) {
        Call<List<RepairTask>> call = RepairQueue.list(vaultId, fileId, limit);
        Wire.Writer w = new Wire.Writer();
        call.fields().accept(w);
        try (RocksCatalogStore.View v = store.view()) {
            return reply(CommandDispatcher.read(Op.LIST_REPAIRS, new Wire.Reader(w.toByteArray()), v), call);
        }
    }

    @Test
    void enqueueMergesRemoveTakesRepairedShardsAndTheListPagesInOrder() throws Exception {
        try (RocksCatalogStore store = RocksCatalogStore.open(dir.resolve("db"))) {
            applied(store, T0, ClusterMap.registerVault(new VaultInfo(2, new FileLayout(4, 2, 65536), 1L << 40,
                    List.of())));
            RepairTask first = applied(store, T0 + 1, RepairQueue.enqueue(2, 77, List.of(5, 1), "missing-at-write"));
            assertThat(first).isEqualTo(new RepairTask(2, 77, List.of(1, 5), "missing-at-write",
                    Instant.ofEpochMilli(T0 + 1)));
            RepairTask merged = applied(store, T0 + 2, RepairQueue.enqueue(2, 77, List.of(3, 5), "corrupt-on-read"));
            assertThat(merged).isEqualTo(new RepairTask(2, 77, List.of(1, 3, 5), "missing-at-write",
                    Instant.ofEpochMilli(T0 + 1)));
            applied(store, T0 + 3, RepairQueue.enqueue(2, 9, List.of(0), "scrub"));
            applied(store, T0 + 4, RepairQueue.enqueue(2, 1L << 40, List.of(2), "scrub"));

            assertThat(list(store, 0, 0, 10)).extracting(RepairTask::fileId).containsExactly(9L, 77L, 1L << 40);
            assertThat(list(store, 2, 10, 1)).extracting(RepairTask::fileId).containsExactly(77L);

            assertThat(applied(store, T0 + 5, RepairQueue.remove(2, 77, List.of(1, 5))))
                    .contains(new RepairTask(2, 77, List.of(3), "missing-at-write", Instant.ofEpochMilli(T0 + 1)));
            assertThat(applied(store, T0 + 6, RepairQueue.remove(2, 77, List.of(3)))).isEmpty();
            assertThat(applied(store, T0 + 7, RepairQueue.remove(2, 77, List.of(3)))).isEmpty();
            assertThat(applied(store, T0 + 8, RepairQueue.remove(2, 9, List.of()))).isEmpty();
            assertThat(list(store, 0, 0, 10)).extracting(RepairTask::fileId).containsExactly(1L << 40);

            assertThat(refusal(apply(store, T0, RepairQueue.enqueue(2, 5, List.of(6), "scrub"))))
                    .isEqualTo(ErrorCode.INVALID_ARGUMENT);
            assertThat(refusal(apply(store, T0, RepairQueue.enqueue(3, 5, List.of(0), "scrub"))))
                    .isEqualTo(ErrorCode.INVALID_ARGUMENT);
            assertThat(refusal(apply(store, T0, RepairQueue.enqueue(2, 5, List.of(), "scrub"))))
                    .isEqualTo(ErrorCode.INVALID_ARGUMENT);
            assertThat(refusal(apply(store, T0, RepairQueue.enqueue(2, 5, List.of(0), "Not A Reason"))))
                    .isEqualTo(ErrorCode.INVALID_ARGUMENT);

            store.checkpoint(dir.resolve("snapshot"));
        }
        try (RocksCatalogStore restored = RocksCatalogStore.open(dir.resolve("snapshot"))) {
            assertThat(list(restored, 0, 0, 10)).extracting(RepairTask::fileId).containsExactly(1L << 40);
        }
    }

    private static Optional<FileRef> file(RocksCatalogStore store, int vaultId, long fileId) {
        Call<Optional<FileRef>> call = FileLifetimes.file(vaultId, fileId);
        Wire.Writer w = new Wire.Writer();
        call.fields().accept(w);
        try (RocksCatalogStore.View v = store.view()) {
            return reply(CommandDispatcher.read(Op.GET_FILE, new Wire.Reader(w.toByteArray()), v), call);
        }
    }

    @Test
    void aCommitOfAFileWithMissingShardsQueuesThemInItsOwnBatchOnlyAtTheFirstReference() throws Exception {
        FileLayout layout = new FileLayout(4, 2, 65536);
        FileRef degraded = new FileRef(2, 100, 5000, layout, List.of(5, 1));
        FileRef part = new FileRef(2, 101, 6000, layout, List.of(0));
        try (RocksCatalogStore store = RocksCatalogStore.open(dir.resolve("db"))) {
            applied(store, T0, Buckets.createBucket("bkt", "AK", false, "private"));
            applied(store, T0 + 1, ObjectVersions.putObject(PutObjectVersion.of("bkt", "whole", "e1",
                    ObjectMetadata.EMPTY, new FileRef(2, 99, 10, layout, List.of()))));
            applied(store, T0 + 2, ObjectVersions.putObject(PutObjectVersion.of("bkt", "k1", "e1",
                    ObjectMetadata.EMPTY, degraded)));
            assertThat(list(store, 0, 0, 10)).containsExactly(new RepairTask(2, 100, List.of(1, 5),
                    RepairQueue.WRITE_MISSED, Instant.ofEpochMilli(T0 + 2)));
            assertThat(file(store, 2, 100)).contains(degraded);
            assertThat(file(store, 2, 98)).isEmpty();

            // Repaired; a second reference to the same file (a copy) does not queue its written-missing shards again.
            applied(store, T0 + 3, RepairQueue.remove(2, 100, List.of(1, 5)));
            applied(store, T0 + 4, ObjectVersions.putObject(PutObjectVersion.of("bkt", "copy", "e1",
                    ObjectMetadata.EMPTY, degraded)));
            assertThat(list(store, 0, 0, 10)).isEmpty();

            // A part: queued at its upload; after its repair, completing the upload queues nothing.
            MultipartUpload u = applied(store, T0 + 5, Uploads.createUpload("bkt", "mp", ObjectMetadata.EMPTY,
                    Optional.empty(), false));
            applied(store, T0 + 6, Uploads.putPart("bkt", "mp", u.uploadId(), 1, "p1", part, Map.of()));
            assertThat(list(store, 0, 0, 10)).extracting(RepairTask::fileId, RepairTask::shards, RepairTask::reason)
                    .containsExactly(tuple(101L, List.of(0), RepairQueue.WRITE_MISSED));
            applied(store, T0 + 7, RepairQueue.remove(2, 101, List.of(0)));
            applied(store, T0 + 8, Uploads.completeUpload("bkt", "mp", u.uploadId(), List.of(new CompletedPart(1, "p1")),
                    0, WriteCondition.NONE, Map.of(), ""));
            assertThat(list(store, 0, 0, 10)).isEmpty();
            assertThat(file(store, 2, 101)).contains(part);
        }
    }

    @Test
    void aStoreFromBeforeTheQueueOpensWithItEmptyAndItsDataUntouched() throws Exception {
        Path old = dir.resolve("old");
        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
        descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY));
        for (Table t : Table.values()) {
            if (t != Table.REPAIRS) {
                descriptors.add(new ColumnFamilyDescriptor(t.cfNameBytes()));
            }
        }
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try (DBOptions options = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
             RocksDB db = RocksDB.open(options, old.toString(), descriptors, handles)) {
            db.put(handles.get(Table.STASHES.ordinal() + 1), Keys.utf8("s1"), new byte[] {1, 2, 3});
            handles.forEach(ColumnFamilyHandle::close);
        }
        try (RocksCatalogStore store = RocksCatalogStore.open(old)) {
            assertThat(list(store, 0, 0, 10)).isEmpty();
            try (RocksCatalogStore.View v = store.view()) {
                assertThat(v.get(Table.STASHES, Keys.utf8("s1"))).containsExactly(1, 2, 3);
            }
        }
    }
}
