package io.shardvault.stash.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ShardId;
import io.shardvault.common.testing.FileFaults;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.stash.StashStoreOptions;
import io.shardvault.stash.api.StashEntryInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;

/**
 * The chunk log under the store, on real files with real fsyncs and a real RocksDB: segments roll
 * and are read across, are deleted once empty (not before the deletes are synced), recovery at open
 * drops exactly the index entries whose bytes did not survive, and compaction moves live entries
 * without resurrecting purged ones.
 */
@Timeout(120)
class ChunkLogStoreTest {
    /** Small segments: a few dozen 4 KiB chunks fill one. */
    private static final long SEGMENT_BYTES = 64 << 10;
    private static final int CHUNK = 4 << 10;

    @TempDir
    Path dir;

    private static StashStoreOptions options() {
        return StashStoreOptions.defaults().withChunkLog(SEGMENT_BYTES, Duration.ZERO);
    }

    private static byte[] bytes(int length, long seed) {
        byte[] out = new byte[length];
        new Random(seed).nextBytes(out);
        return out;
    }

    private static ShardStore.Put put(ShardId id, byte[] chunk) {
        StashEntryInfo info = new StashEntryInfo(id, id.fileId() * 7, chunk.length, Crc32c.of(chunk),
                1000 + id.fileId());
        return new ShardStore.Put(info, Unpooled.wrappedBuffer(EntryFormat.encodeChunkValue(info,
                Unpooled.wrappedBuffer(chunk))));
    }

    /** Writes {@code count} entries of fileIds from {@code first}, one commit each; returns them by id. */
    private static Map<ShardId, byte[]> commitEntries(ShardStore store, long first, int count, int length)
            throws ShardStoreException {
        Map<ShardId, byte[]> out = new LinkedHashMap<>();
        for (long f = first; f < first + count; f++) {
            ShardId id = new ShardId(1, f, (int) (f % 3));
            byte[] chunk = bytes(length, f);
            store.commit(List.of(put(id, chunk)));
            out.put(id, chunk);
        }
        return out;
    }

    private static void assertReadsBack(ShardStore store, Map<ShardId, byte[]> entries) throws Exception {
        for (Map.Entry<ShardId, byte[]> e : entries.entrySet()) {
            byte[] value = store.chunkValue(e.getKey()).orElseThrow(() -> new AssertionError("lost " + e.getKey()));
            StashEntryInfo info = EntryFormat.decodeChunkValue(e.getKey(), value);
            assertThat(info).isEqualTo(store.meta(e.getKey()).orElseThrow());
            assertThat(Arrays.copyOfRange(value, EntryFormat.CHUNK_HEADER_BYTES, value.length)).as("%s", e.getKey())
                    .isEqualTo(e.getValue());
        }
    }

    private List<Path> segments() throws IOException {
        try (Stream<Path> files = Files.list(dir.resolve(RocksShardStore.CHUNKS_DIR))) {
            return files.filter(p -> p.getFileName().toString().matches("seg-[0-9a-f]{16}\\.log")).sorted().toList();
        }
    }

    private Path segment(long number) {
        return dir.resolve(RocksShardStore.CHUNKS_DIR).resolve(String.format("seg-%016x.log", number));
    }

    private static List<ShardStore.Mutation> deletes(Iterable<ShardId> ids) {
        List<ShardStore.Mutation> out = new ArrayList<>();
        ids.forEach(id -> out.add(new ShardStore.Delete(id)));
        return out;
    }

    @Test
    void segmentsRollAtTheirSizeAndReadsSpanThem() throws Exception {
        Map<ShardId, byte[]> entries;
        try (RocksShardStore store = RocksShardStore.open(dir, options())) {
            entries = commitEntries(store, 0, 60, CHUNK);
            // One batch larger than a segment, and one chunk larger than a segment on its own.
            Map<ShardId, byte[]> batch = new LinkedHashMap<>();
            List<ShardStore.Mutation> puts = new ArrayList<>();
            for (long f = 100; f < 130; f++) {
                ShardId id = new ShardId(2, f, 0);
                byte[] chunk = bytes(f == 110 ? (int) SEGMENT_BYTES * 2 : CHUNK, f);
                batch.put(id, chunk);
                puts.add(put(id, chunk));
            }
            store.write(puts);
            store.syncWal();
            entries.putAll(batch);
            assertReadsBack(store, entries);
            for (Path segment : segments()) {
                long number = Long.parseLong(segment.getFileName().toString().substring(4, 20), 16);
                assertThat(Files.size(segment) <= SEGMENT_BYTES || scan(store, number).size() == 1)
                        .as("%s is within its size, or holds one chunk larger than a segment", segment).isTrue();
            }
            assertThat(segments()).hasSizeGreaterThan(5);
        }
        try (RocksShardStore store = RocksShardStore.open(dir, options())) {
            assertReadsBack(store, entries);
            assertThat(store.listSlot(2, 0, Optional.empty(), 100)).hasSize(30);
        }
    }

    /**
     * The stash's committer threads write on one and sync on the other: a sync that lists the empty sealed
     * segments while a write rolls to a new one must not take the new segment (in the segment map, not yet
     * active) for an empty sealed one and delete it after its sync, with the records written into it since:
     * StashKillTest failed so (every later append ClosedChannelException), and a record acknowledged by a
     * later sync would have been lost. Every write here rolls; every entry must read back after both stop.
     */
    @Test
    void aSyncRacingRollsNeverDeletesTheNewActiveSegment() throws Exception {
        int chunk = (int) SEGMENT_BYTES / 2;
        Map<ShardId, byte[]> entries = new LinkedHashMap<>();
        try (RocksShardStore store = RocksShardStore.open(dir, options())) {
            AtomicBoolean writing = new AtomicBoolean(true);
            CompletableFuture<Integer> syncs = CompletableFuture.supplyAsync(
                    () -> {
                        int n = 0;
                        while (writing.get()) {
                            try {
                                store.syncWal();
                            } catch (ShardStoreException e) {
                                throw new CompletionException(e);
                            }
                            n++;
                        }
                        return n;
                    });
            try {
                for (long f = 0; f < 1500 && !syncs.isDone(); f++) {
                    ShardId id = new ShardId(3, f, 0);
                    byte[] bytes = bytes(chunk, f);
                    store.write(List.of(put(id, bytes)));
                    entries.put(id, bytes);
                }
            } finally {
                writing.set(false);
            }
            assertThat(syncs.get(60, TimeUnit.SECONDS)).isPositive();
            store.syncWal();
            assertThat(entries).hasSize(1500);
            assertReadsBack(store, entries);
        }
        try (RocksShardStore store = RocksShardStore.open(dir, options())) {
            assertReadsBack(store, entries);
        }
    }

    @Test
    void aSegmentIsDeletedOnceEmptyAndOnlyAfterItsPurgesAreSynced() throws Exception {
        try (RocksShardStore store = RocksShardStore.open(dir, options())) {
            Map<ShardId, byte[]> entries = commitEntries(store, 0, 40, CHUNK);
            Path first = segment(0);
            assertThat(first).exists();
            List<ShardId> inFirst = idsIn(store, 0);
            assertThat(inFirst).hasSizeGreaterThan(2);

            store.write(deletes(inFirst.subList(1, inFirst.size())));
            store.syncWal();
            assertThat(first).as("one entry is still alive in it").exists();

            store.write(deletes(inFirst.subList(0, 1)));
            assertThat(first).as("its last purge is written, not synced").exists();
            store.syncWal();
            assertThat(first).as("its last purge is synced").doesNotExist();

            inFirst.forEach(entries::remove);
            assertReadsBack(store, entries);
            for (ShardId id : inFirst) {
                assertThat(store.chunkValue(id)).isEmpty();
            }
        }
    }

    /** How the tail of the newest segment is damaged before the store opens again. */
    enum Damage {
        /** Cut at the end of the acknowledged records: every unacknowledged one is gone. */
        TRUNCATED_AT_A_RECORD_BOUNDARY,
        /** Cut in the middle of the second unacknowledged record: the first survives whole. */
        TRUNCATED_MID_RECORD,
        /** The first unacknowledged record's chunk bytes rot: it fails its CRC. */
        BYTE_FLIPPED_IN_AN_UNACKNOWLEDGED_ENTRY,
    }

    @ParameterizedTest
    @EnumSource(Damage.class)
    void openDropsTheUnacknowledgedEntriesWhoseBytesDidNotSurvive(Damage damage) throws Exception {
        Map<ShardId, byte[]> acked;
        List<ShardId> unacked = new ArrayList<>();
        long ackedEnd;
        try (RocksShardStore store = RocksShardStore.open(dir, options())) {
            acked = commitEntries(store, 0, 5, 1000);
            ackedEnd = Files.size(segment(0));
            List<ShardStore.Mutation> puts = new ArrayList<>();
            for (long f = 50; f < 54; f++) {
                ShardId id = new ShardId(1, f, 1);
                unacked.add(id);
                puts.add(put(id, bytes(1000, f)));
            }
            // Written to the log and the index, never synced: what a crash before the sync leaves.
            store.write(puts);
        }
        long record = ChunkLog.recordBytes(1000);
        Path newest = segment(0);
        List<ShardId> survivors = switch (damage) {
            case TRUNCATED_AT_A_RECORD_BOUNDARY -> {
                FileFaults.truncate(newest, ackedEnd);
                yield List.of();
            }
            case TRUNCATED_MID_RECORD -> {
                FileFaults.truncate(newest, ackedEnd + record + record / 2);
                yield List.of(unacked.get(0));
            }
            case BYTE_FLIPPED_IN_AN_UNACKNOWLEDGED_ENTRY -> {
                FileFaults.flipBits(newest, ackedEnd + record - 10, 0x20);
                yield unacked.subList(1, unacked.size());
            }
        };

        try (RocksShardStore store = RocksShardStore.open(dir, options())) {
            assertReadsBack(store, acked);
            for (ShardId id : unacked) {
                assertThat(store.meta(id).isPresent()).as("%s kept", id).isEqualTo(survivors.contains(id));
                if (survivors.contains(id)) {
                    EntryFormat.decodeChunkValue(id, store.chunkValue(id).orElseThrow());
                }
            }
            List<StashEntryInfo> all = new ArrayList<>();
            store.forEachMeta(all::add);
            assertThat(all).hasSize(acked.size() + survivors.size());
        }
    }

    /**
     * Rot after the fact in the newest segment: an acknowledged entry (forced, then synced) whose bytes fail
     * their CRC at the next open is not a torn write; it must stay in the index and read as CORRUPT, not
     * vanish as an unacknowledged one would.
     */
    @Test
    void anAcknowledgedEntryThatRottedInTheNewestSegmentIsKeptAndReadsAsCorrupt() throws Exception {
        Map<ShardId, byte[]> acked;
        try (RocksShardStore store = RocksShardStore.open(dir, options())) {
            acked = commitEntries(store, 0, 5, 1000);
        }
        assertThat(segments()).hasSize(1);
        long record = ChunkLog.recordBytes(1000);
        // The second record's chunk bytes, past its headers.
        FileFaults.flipBits(segment(0), ChunkLog.FILE_HEADER_BYTES + record + record - 10, 0x20);
        ShardId rotten = acked.keySet().stream().skip(1).findFirst().orElseThrow();

        try (RocksShardStore store = RocksShardStore.open(dir, options())) {
            List<StashEntryInfo> all = new ArrayList<>();
            store.forEachMeta(all::add);
            assertThat(all).as("every acknowledged entry is still indexed").hasSize(acked.size());
            int corrupt = 0;
            for (Map.Entry<ShardId, byte[]> e : acked.entrySet()) {
                try {
                    EntryFormat.decodeChunkValue(e.getKey(), store.chunkValue(e.getKey()).orElseThrow());
                } catch (CorruptEntryException expected) {
                    corrupt++;
                }
            }
            assertThat(corrupt).as("entries read as corrupt").isEqualTo(1);
            assertThat(store.meta(rotten)).isPresent();
        }
    }

    @Test
    void anIndexEntryWhoseSegmentIsGoneIsDropped() throws Exception {
        Map<ShardId, byte[]> entries;
        List<ShardId> inFirst;
        try (RocksShardStore store = RocksShardStore.open(dir, options())) {
            entries = commitEntries(store, 0, 40, CHUNK);
            inFirst = idsIn(store, 0);
        }
        assertThat(segments().size()).isGreaterThan(2);
        // The file is gone while the index still points into it (an operator removed it, or a crash
        // came between a segment's deletion and the sync of the purges that emptied it on another
        // file system's ordering): those entries must not be served, nor keep the store from opening.
        Files.delete(segment(0));
        try (RocksShardStore store = RocksShardStore.open(dir, options())) {
            for (ShardId id : inFirst) {
                assertThat(store.meta(id)).isEmpty();
                assertThat(store.chunkValue(id)).isEmpty();
                entries.remove(id);
            }
            assertReadsBack(store, entries);
        }
    }

    /**
     * Three entries alive in a mostly purged segment. While compaction runs, one is purged before it
     * is looked at, and one after it was copied but before its index entry was pointed at the copy:
     * both purges win (the copy of the second is dead), the third entry moves, and the segment goes.
     */
    @Test
    void compactionMovesLiveEntriesAndAPurgeRacingItWins() throws Exception {
        Map<ShardId, byte[]> entries;
        List<ShardId> inFirst;
        try (RocksShardStore store = RocksShardStore.open(dir, options())) {
            entries = commitEntries(store, 0, 40, CHUNK);
            inFirst = idsIn(store, 0);
            store.commit(deletes(inFirst.subList(3, inFirst.size())));
            inFirst.subList(3, inFirst.size()).forEach(entries::remove);
            assertThat(store.compactionCandidates(System.currentTimeMillis() + 1)).contains(0L);

            ShardId moved = inFirst.get(0);
            ShardId purgedAfterItsCopy = inFirst.get(1);
            ShardId purgedBeforeItsTurn = inFirst.get(2);
            List<ShardId> looked = new ArrayList<>();
            long copied = store.compact(0, id -> {
                looked.add(id);
                if (id.equals(moved)) {
                    purge(store, purgedBeforeItsTurn);
                } else if (id.equals(purgedBeforeItsTurn)) {
                    purge(store, purgedAfterItsCopy);
                }
            }, bytes -> { });
            entries.remove(purgedAfterItsCopy);
            entries.remove(purgedBeforeItsTurn);

            assertThat(looked).startsWith(moved, purgedAfterItsCopy, purgedBeforeItsTurn);
            assertThat(copied).as("bytes moved").isEqualTo(EntryFormat.CHUNK_HEADER_BYTES + CHUNK);
            assertThat(segment(0)).as("compacted segment deleted").doesNotExist();
            assertThat(store.meta(purgedAfterItsCopy)).as("the purge after the copy won").isEmpty();
            assertThat(store.meta(purgedBeforeItsTurn)).as("the purge before its turn won").isEmpty();
            assertReadsBack(store, entries);
        }
        try (RocksShardStore store = RocksShardStore.open(dir, options())) {
            assertReadsBack(store, entries);
            List<StashEntryInfo> all = new ArrayList<>();
            store.forEachMeta(all::add);
            assertThat(all).hasSize(entries.size());
        }
    }

    private static List<ChunkLog.ScannedRecord> scan(RocksShardStore store, long segment) throws ShardStoreException {
        return store.chunkLog().scan(segment);
    }

    private static List<ShardId> idsIn(RocksShardStore store, long segment) throws ShardStoreException {
        return scan(store, segment).stream().map(ChunkLog.ScannedRecord::id).toList();
    }

    private static void purge(ShardStore store, ShardId id) {
        try {
            store.commit(deletes(List.of(id)));
        } catch (ShardStoreException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * The background compactor takes only segments sealed longer than compactAfter ago, mostly dead;
     * the gauges follow: dead bytes fall to zero once the segment is gone.
     */
    @Test
    void theCompactorWaitsForCompactAfterAndTheGaugesFollow() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (RocksShardStore store = RocksShardStore.open(dir, options())) {
            StashMetrics metrics = new StashMetrics(registry, "test", new Occupancy(), 1L << 30, Clock.systemUTC());
            metrics.chunkLogs(List.of(store));
            Map<ShardId, byte[]> entries = commitEntries(store, 0, 20, CHUNK);
            List<ShardId> inFirst = idsIn(store, 0);
            store.commit(deletes(inFirst.subList(1, inFirst.size())));
            inFirst.subList(1, inFirst.size()).forEach(entries::remove);
            assertThat(registry.get("shardvault.stash.chunklog.dead.bytes").gauge().value())
                    .isEqualTo((double) (inFirst.size() - 1) * ChunkLog.recordBytes(CHUNK));
            double segmentsBefore = registry.get("shardvault.stash.chunklog.segments").gauge().value();

            Duration compactAfter = Duration.ofMinutes(5);
            ChunkLogCompactor now = new ChunkLogCompactor(List.of(store), compactAfter, 1L << 30, Clock.systemUTC());
            assertThat(now.runOnce()).as("sealed just now: not yet").isZero();
            assertThat(segment(0)).exists();

            ChunkLogCompactor later = new ChunkLogCompactor(List.of(store), compactAfter, 1L << 30,
                    Clock.offset(Clock.systemUTC(), compactAfter.plusSeconds(1)));
            assertThat(later.runOnce()).isEqualTo(EntryFormat.CHUNK_HEADER_BYTES + CHUNK);
            assertThat(segment(0)).doesNotExist();
            assertThat(registry.get("shardvault.stash.chunklog.dead.bytes").gauge().value()).isZero();
            assertThat(registry.get("shardvault.stash.chunklog.segments").gauge().value())
                    .isEqualTo(segmentsBefore - 1);
            assertReadsBack(store, entries);
            metrics.close();
        }
    }

    /** A stash data directory from before the chunk log: chunk values in the default column family, version 1 metas. */
    @Test
    void entriesOfTheRocksDbOnlyLayoutAreServedAndPurged() throws Exception {
        ShardId old = new ShardId(4, 1, 2);
        byte[] oldChunk = bytes(9000, 4);
        StashEntryInfo oldInfo = new StashEntryInfo(old, 0, oldChunk.length, Crc32c.of(oldChunk), 5);
        writeLegacy(dir, old, oldInfo, oldChunk);

        ShardId fresh = new ShardId(4, 2, 2);
        byte[] freshChunk = bytes(9000, 5);
        try (RocksShardStore store = RocksShardStore.open(dir, options())) {
            assertReadsBack(store, Map.of(old, oldChunk));
            store.commit(List.of(put(fresh, freshChunk)));
            assertThat(store.listSlot(4, 2, Optional.empty(), 10)).extracting(StashEntryInfo::id)
                    .containsExactly(old, fresh);
            store.commit(deletes(List.of(old)));
            assertThat(store.chunkValue(old)).isEmpty();
            assertReadsBack(store, Map.of(fresh, freshChunk));
        }
        assertThat(readLegacyChunk(dir, old)).as("the old chunk value is deleted with its entry").isNull();
    }

    private static void writeLegacy(Path dir, ShardId id, StashEntryInfo info, byte[] chunk) throws Exception {
        withRawDb(dir, (db, handles) -> {
            db.put(handles.get(0), id.encode(), EntryFormat.encodeChunkValue(info, Unpooled.wrappedBuffer(chunk)));
            db.put(handles.get(1), id.encode(), EntryFormat.encodeMetaValue(info));
            return null;
        });
    }

    private static byte[] readLegacyChunk(Path dir, ShardId id) throws Exception {
        return withRawDb(dir, (db, handles) -> db.get(handles.get(0), id.encode()));
    }

    private interface RawDbAction<T> {
        T apply(RocksDB db, List<ColumnFamilyHandle> handles) throws Exception;
    }

    private static <T> T withRawDb(Path dir, RawDbAction<T> action) throws Exception {
        RocksNative.ensureAvailable();
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try (ColumnFamilyOptions cfOptions = new ColumnFamilyOptions();
             DBOptions dbOptions = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true)) {
            List<ColumnFamilyDescriptor> descriptors = List.of(
                    new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, cfOptions),
                    new ColumnFamilyDescriptor(RocksShardStore.META_CF.getBytes(StandardCharsets.UTF_8), cfOptions));
            try (RocksDB db = RocksDB.open(dbOptions, dir.toString(), descriptors, handles)) {
                return action.apply(db, handles);
            } finally {
                handles.forEach(ColumnFamilyHandle::close);
            }
        }
    }
}
