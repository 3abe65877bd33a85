package io.shardvault.coordinator.catalog.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.DeleteObjectVersion;
import io.shardvault.coordinator.catalog.FileDeletion;
import io.shardvault.coordinator.catalog.FileKey;
import io.shardvault.coordinator.catalog.FileLayout;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.catalog.FileState;
import io.shardvault.coordinator.catalog.MultipartUpload;
import io.shardvault.coordinator.catalog.ObjectMetadata;
import io.shardvault.coordinator.catalog.PutObjectVersion;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The orphan collector's fence applied to a real store (issue #20, section 5): COLLECT_FILES fences only
 * files nothing refers to and the reaper does not own; every commit that would then refer to a fenced file
 * (a version, a part, a copy) is refused with CONFLICT and changes nothing; the fence outlives a snapshot.
 */
@Timeout(60)
class OrphanFencesTest {
    private static final long T0 = 1_800_000_000_000L;
    private static final FileLayout LAYOUT = new FileLayout(4, 2, 65536);

    @TempDir
    Path dir;

    private long index;

    private byte[] apply(RocksCatalogStore store, Call<?> call) throws Exception {
        index++;
        Wire.Writer w = new Wire.Writer().u8(Codec.FORMAT).i64(T0 + index).u8(call.op().code).i64(0).i64(0);
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

    private <T> T applied(RocksCatalogStore store, Call<T> call) throws Exception {
        return reply(apply(store, call), call);
    }

    private static ErrorCode refusal(byte[] result) {
        Wire.Reader r = new Wire.Reader(result);
        assertThat(r.u8()).isEqualTo(1);
        return ErrorCode.fromWire(r.u16());
    }

    private static byte[] answer(RocksCatalogStore store, Call<?> call) {
        Wire.Writer w = new Wire.Writer();
        call.fields().accept(w);
        try (RocksCatalogStore.View v = store.view()) {
            return CommandDispatcher.read(call.op(), new Wire.Reader(w.toByteArray()), v);
        }
    }

    private static <T> T read(RocksCatalogStore store, Call<T> call) {
        return reply(answer(store, call), call);
    }

    private static FileRef file(long fileId) {
        return new FileRef(2, fileId, 100, LAYOUT, List.of());
    }

    private static FileKey key(long fileId) {
        return new FileKey(2, fileId);
    }

    private static PutObjectVersion put(String key, long fileId) {
        return PutObjectVersion.of("bkt", key, "e" + fileId, ObjectMetadata.EMPTY, file(fileId));
    }

    @Test
    void aFencedFileCanNeverBeReferencedAndAReferencedFileCanNeverBeFenced() throws Exception {
        try (RocksCatalogStore store = RocksCatalogStore.open(dir.resolve("db"))) {
            applied(store, Buckets.createBucket("bkt", "AK", false, "private"));
            applied(store, ObjectVersions.putObject(put("live", 10)));
            MultipartUpload u = applied(store, Uploads.createUpload("bkt", "mp", ObjectMetadata.EMPTY,
                    Optional.empty(), false));
            applied(store, Uploads.putPart("bkt", "mp", u.uploadId(), 1, "p1", file(12), Map.of()));

            // Only the unreferenced file is fenced: the version's and the part's files are live.
            assertThat(applied(store, OrphanFences.collect(List.of(key(10), key(11), key(12)))))
                    .containsExactly(key(11));
            assertThat(read(store, OrphanFences.states(List.of(key(10), key(11), key(12), key(13)))))
                    .containsExactly(FileState.LIVE, FileState.COLLECTED, FileState.LIVE, FileState.ABSENT);

            // Every kind of commit that would refer to the fenced file is refused, definitely, and changes nothing.
            assertThat(refusal(apply(store, ObjectVersions.putObject(put("late", 11))))).isEqualTo(ErrorCode.CONFLICT);
            assertThat(refusal(apply(store, ObjectVersions.putObject(PutObjectVersion.of("bkt", "two-parts", "e",
                    ObjectMetadata.EMPTY, file(11)))))).isEqualTo(ErrorCode.CONFLICT);
            assertThat(refusal(apply(store, Uploads.putPart("bkt", "mp", u.uploadId(), 2, "p2", file(11), Map.of()))))
                    .isEqualTo(ErrorCode.CONFLICT);
            assertThat(refusal(answer(store, ObjectVersions.getObject("bkt", "late", Optional.empty()))))
                    .as("the refused version was not written").isEqualTo(ErrorCode.NO_SUCH_KEY);
            assertThat(read(store, FileLifetimes.file(2, 11))).isEmpty();

            // Fencing again is idempotent: a collected file stays fenced and is answered as fenced.
            assertThat(applied(store, OrphanFences.collect(List.of(key(11))))).containsExactly(key(11));

            // A released file is the reaper's, not the collector's, until its deletion is acknowledged.
            applied(store, ObjectVersions.deleteObject(new DeleteObjectVersion("bkt", "live", Optional.empty(),
                    false)));
            assertThat(read(store, OrphanFences.states(List.of(key(10))))).containsExactly(FileState.RELEASED);
            assertThat(applied(store, OrphanFences.collect(List.of(key(10))))).isEmpty();
            List<FileDeletion> pending = read(store, FileLifetimes.pendingDeletions(10));
            assertThat(pending).extracting(d -> d.file().fileId()).containsExactly(10L);
            applied(store, FileLifetimes.ackDeletions(List.of(pending.get(0).id())));
            assertThat(read(store, OrphanFences.states(List.of(key(10))))).containsExactly(FileState.ABSENT);
            assertThat(applied(store, OrphanFences.collect(List.of(key(10))))).containsExactly(key(10));

            store.checkpoint(dir.resolve("snapshot"));
        }
        try (RocksCatalogStore restored = RocksCatalogStore.open(dir.resolve("snapshot"))) {
            assertThat(read(restored, OrphanFences.states(List.of(key(10), key(11), key(12)))))
                    .containsExactly(FileState.COLLECTED, FileState.COLLECTED, FileState.LIVE);
            assertThat(refusal(apply(restored, ObjectVersions.putObject(put("after-restore", 11)))))
                    .isEqualTo(ErrorCode.CONFLICT);
        }
    }
}
