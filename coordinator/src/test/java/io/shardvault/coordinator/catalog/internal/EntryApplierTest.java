package io.shardvault.coordinator.catalog.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.FileLayout;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.catalog.ListVersionsQuery;
import io.shardvault.coordinator.catalog.ObjectMetadata;
import io.shardvault.coordinator.catalog.PutObjectVersion;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Log entries applied to a real store: a write retried with its request id is applied once. */
@Timeout(60)
class EntryApplierTest {
    private static final long T0 = 1_800_000_000_000L;

    @TempDir
    Path dir;

    private static byte[] entry(long leaderMillis, Op op, long clientMillis, long nonce, java.util.function.Consumer<Wire.Writer> body) {
        Wire.Writer w = new Wire.Writer().u8(Codec.FORMAT).i64(leaderMillis).u8(op.code).i64(clientMillis).i64(nonce);
        body.accept(w);
        return w.toByteArray();
    }

    private static byte[] put(long leaderMillis, long clientMillis, long nonce, String key) {
        PutObjectVersion p = PutObjectVersion.of("bkt", key, "e", ObjectMetadata.EMPTY,
                new FileRef(1, nonce, 1, new FileLayout(2, 1, 1024), List.of()));
        return entry(leaderMillis, Op.PUT_OBJECT, clientMillis, nonce, w -> ObjectVersions.putRequest(w, p));
    }

    private static int versions(RocksCatalogStore store) throws Exception {
        try (RocksCatalogStore.View v = store.view()) {
            return ObjectListings.listVersions(v, new ListVersionsQuery("bkt", "", "", "", "", 1000)).versions().size();
        }
    }

    @Test
    void retriedWriteIsAnsweredNotReapplied() throws Exception {
        AtomicInteger duplicates = new AtomicInteger();
        try (RocksCatalogStore store = RocksCatalogStore.open(dir)) {
            EntryApplier.apply(store, 1, 1, entry(T0, Op.CREATE_BUCKET, T0, 1, w -> w.str("bkt").str("AK").bool(true)),
                    duplicates::incrementAndGet);
            byte[] first = EntryApplier.apply(store, 1, 2, put(T0, T0, 42, "k"), duplicates::incrementAndGet);
            byte[] again = EntryApplier.apply(store, 2, 3, put(T0 + 5, T0, 42, "k"), duplicates::incrementAndGet);
            assertThat(again).isEqualTo(first);
            assertThat(duplicates).hasValue(1);
            assertThat(versions(store)).isEqualTo(1);
            assertThat(store.lastApplied()).containsExactly(2, 3);

            EntryApplier.apply(store, 2, 4, put(T0 + 6, T0 + 6, 43, "k"), duplicates::incrementAndGet);
            assertThat(versions(store)).isEqualTo(2);

            // A typed failure is remembered too: the retry gets the same answer.
            byte[] missing = EntryApplier.apply(store, 2, 5, entry(T0, Op.DELETE_BUCKET, T0, 7, w -> w.str("nope")),
                    duplicates::incrementAndGet);
            assertThat(new Wire.Reader(missing, 1, 2).u16()).isEqualTo(ErrorCode.NO_SUCH_BUCKET.wire());
            assertThat(EntryApplier.apply(store, 2, 6, entry(T0, Op.DELETE_BUCKET, T0, 7, w -> w.str("nope")),
                    duplicates::incrementAndGet)).isEqualTo(missing);

            // Past the window, at a pruning index, old ids are forgotten.
            long later = T0 + EntryApplier.DEDUP_WINDOW.toMillis() + 1;
            EntryApplier.apply(store, 2, EntryApplier.PRUNE_EVERY, put(later, later, 44, "other"),
                    duplicates::incrementAndGet);
            try (RocksCatalogStore.View v = store.view()) {
                byte[] id = new Wire.Writer().i64(T0).i64(42).toByteArray();
                assertThat(v.get(Table.REQUESTS, id)).isNull();
            }
            // A malformed entry is answered, and still advances the applied index.
            byte[] bad = EntryApplier.apply(store, 2, EntryApplier.PRUNE_EVERY + 1, new byte[] {9, 9},
                    duplicates::incrementAndGet);
            assertThat(bad[0]).isEqualTo((byte) 1);
            assertThat(store.lastApplied()[1]).isEqualTo(EntryApplier.PRUNE_EVERY + 1);
        }
        assertThat(Instant.ofEpochMilli(T0)).isNotNull();
    }
}
