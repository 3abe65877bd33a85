package io.shardvault.stash.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.stash.api.StashEntryInfo;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Emptied chunk log segments kept as spares and reused: the next segment overwrites a spare's file in place
 * (the same file, its blocks kept), and the records it held before never pass for records of the new segment,
 * neither in a scan nor in a read at an index entry's place, nor after the log is opened again.
 */
class ChunkLogSparesTest {
    private static final long SEGMENT_BYTES = 64 << 10;
    private static final int CHUNK = 4 << 10;

    @TempDir
    Path dir;

    private long nextFile;

    /** A record appended to the log: what an index entry would hold. */
    private record Appended(ShardId id, ChunkLocation location, byte[] value) {
    }

    private List<Appended> append(ChunkLog log, int count) throws ShardStoreException {
        List<Appended> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long file = nextFile++;
            ShardId id = new ShardId(1, file, 0);
            byte[] chunk = new byte[CHUNK];
            new Random(file).nextBytes(chunk);
            StashEntryInfo info = new StashEntryInfo(id, 0, CHUNK, Crc32c.of(chunk), 1000 + file);
            byte[] value = EntryFormat.encodeChunkValue(info, Unpooled.wrappedBuffer(chunk));
            ByteBuf buffer = Unpooled.wrappedBuffer(value);
            out.add(new Appended(id, log.append(List.of(id), List.of(buffer)).get(0), value));
        }
        log.force();
        return out;
    }

    private static List<Appended> in(List<Appended> appended, long segment) {
        return appended.stream().filter(a -> a.location().segment() == segment).toList();
    }

    /** Marks every record of the segment dead and deletes it, as a sync after its last purge does. */
    private static void empty(ChunkLog log, List<Appended> appended, long segment) throws ShardStoreException {
        for (Appended a : in(appended, segment)) {
            log.removed(a.location(), CHUNK);
        }
        assertThat(log.emptySealedSegments()).contains(segment);
        log.force();
        log.delete(List.of(segment));
    }

    private Path chunks(String name) {
        return dir.resolve(name);
    }

    private static String segmentName(long number) {
        return String.format("seg-%016x.log", number);
    }

    private static String spareName(long number) {
        return String.format("spare-%016x.log", number);
    }

    private static Object fileKey(Path path) throws IOException {
        return Files.readAttributes(path, BasicFileAttributes.class).fileKey();
    }

    private List<String> files(String prefix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(prefix)).sorted().toList();
        }
    }

    private static void assertReads(ChunkLog log, List<Appended> records) throws ShardStoreException {
        for (Appended a : records) {
            assertThat(log.read(a.id(), a.location(), CHUNK)).as("%s", a.id()).hasValue(a.value());
        }
    }

    private static List<ShardId> scanned(ChunkLog log, long segment) throws ShardStoreException {
        return log.scan(segment).stream().map(ChunkLog.ScannedRecord::id).toList();
    }

    @Test
    void theNextSegmentReusesASparesFileAndItsOldRecordsNeverPassForNewOnes() throws Exception {
        List<Appended> old;
        List<Appended> fresh;
        List<Appended> more = new ArrayList<>();
        Object spareKey;
        long spareLength;
        try (ChunkLog log = ChunkLog.open(dir, SEGMENT_BYTES)) {
            log.startActive();
            old = append(log, 20);
            assertThat(in(old, 0)).hasSizeGreaterThan(10);
            assertThat(in(old, 1)).isNotEmpty();

            empty(log, old, 0);
            assertThat(chunks(segmentName(0))).doesNotExist();
            assertThat(files("spare-")).containsExactly(spareName(0));
            spareKey = fileKey(chunks(spareName(0)));
            spareLength = Files.size(chunks(spareName(0)));
            assertThat(log.stats().spareBytes()).as("the spare's disk, in the gauge").isEqualTo(spareLength);

            // Fill segment 1, then three records into segment 2, which takes the spare's file.
            while (more.stream().noneMatch(a -> a.location().segment() == 2)) {
                more.addAll(append(log, 1));
            }
            more.addAll(append(log, 2));
            fresh = in(more, 2);
            assertThat(fresh).hasSize(3);
            assertThat(files("spare-")).isEmpty();
            assertThat(log.stats().spareBytes()).isZero();
            assertThat(fileKey(chunks(segmentName(2)))).as("segment 2 is the spare's file").isEqualTo(spareKey);
            assertThat(Files.size(chunks(segmentName(2)))).as("its blocks are kept").isEqualTo(spareLength);

            assertThat(scanned(log, 2)).as("a scan stops where the new records end")
                    .containsExactlyElementsOf(fresh.stream().map(Appended::id).toList());
            assertReads(log, fresh);
            assertStaleRecordsAreRefused(log, old, fresh);
        }
        // Opened again with segment 2 the newest and never sealed: where its records end is found by a scan.
        try (ChunkLog log = ChunkLog.open(dir, SEGMENT_BYTES)) {
            assertThat(scanned(log, 2)).containsExactlyElementsOf(fresh.stream().map(Appended::id).toList());
            assertReads(log, fresh);
            assertStaleRecordsAreRefused(log, old, fresh);
            log.startActive();
            assertThat(files("seg-")).containsExactly(segmentName(1), segmentName(2), segmentName(3));
        }
        // Sealed now: its header holds its length.
        try (ChunkLog log = ChunkLog.open(dir, SEGMENT_BYTES)) {
            assertThat(scanned(log, 2)).containsExactlyElementsOf(fresh.stream().map(Appended::id).toList());
            // No index counted anything alive here: every record is dead, and segment 2's stale tail is not one.
            long records = ChunkLog.recordBytes(CHUNK) * (in(old, 1).size() + in(more, 1).size() + fresh.size());
            assertThat(log.stats().deadBytes()).isEqualTo(records);
        }
    }

    /**
     * Segment 0's records past the end of segment 2's new ones are still in the file, whole: read at their old
     * places as if an index entry of segment 2 pointed there (a crash before a force), each is refused.
     */
    private static void assertStaleRecordsAreRefused(ChunkLog log, List<Appended> old, List<Appended> fresh) {
        long end = fresh.get(fresh.size() - 1).location().position() + ChunkLog.recordBytes(CHUNK);
        List<Appended> stale = in(old, 0).stream().filter(a -> a.location().position() >= end).toList();
        assertThat(stale).hasSizeGreaterThan(5);
        for (Appended a : stale) {
            ChunkLocation there = new ChunkLocation(2, a.location().position());
            assertThatThrownBy(() -> log.read(a.id(), there, CHUNK)).isInstanceOf(CorruptEntryException.class)
                    .hasMessageContaining("CRC32C");
        }
    }

    @Test
    void atMostTwoSparesAreKeptAndANewSegmentNumberIsAboveEverySpares() throws Exception {
        try (ChunkLog log = ChunkLog.open(dir, SEGMENT_BYTES)) {
            log.startActive();
            List<Appended> appended = append(log, 80);
            assertThat(appended.get(appended.size() - 1).location().segment()).isGreaterThan(4);
            for (long segment = 0; segment < 4; segment++) {
                empty(log, appended, segment);
            }
            assertThat(files("spare-")).as("two kept, the others deleted")
                    .containsExactly(spareName(0), spareName(1));
            assertThat(log.stats().spareBytes())
                    .isEqualTo(Files.size(chunks(spareName(0))) + Files.size(chunks(spareName(1))));
        }
        // Every segment file lost (an operator's mistake): numbering must still go past the spares' numbers.
        for (String name : files("seg-")) {
            Files.delete(chunks(name));
        }
        Map<String, Object> keys = new LinkedHashMap<>();
        for (String name : files("spare-")) {
            keys.put(name, fileKey(chunks(name)));
        }
        try (ChunkLog log = ChunkLog.open(dir, SEGMENT_BYTES)) {
            log.startActive();
            assertThat(files("seg-")).containsExactly(segmentName(2));
            assertThat(fileKey(chunks(segmentName(2)))).isEqualTo(keys.get(spareName(0)));
            List<Appended> fresh = append(log, 3);
            assertThat(scanned(log, 2)).containsExactlyElementsOf(fresh.stream().map(Appended::id).toList());
            assertReads(log, fresh);
        }
    }

    /**
     * A segment written before spares (file and records of version 1, 20-byte header, record CRCs without the
     * segment number) is read and scanned as before, and deleted when emptied: never a spare, since its records
     * would pass for those of any later segment.
     */
    @Test
    void aVersionOneSegmentIsServedAndDeletedNotKept() throws Exception {
        List<Appended> v1 = new ArrayList<>();
        byte[] file = new byte[20];
        EntryFormat.putInt(file, 0, 0x5356434C);
        EntryFormat.putInt(file, 4, 1);
        EntryFormat.putLong(file, 8, 0);
        EntryFormat.putInt(file, 16, Crc32c.of(file, 0, 16));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.write(file);
        for (long f = 0; f < 3; f++) {
            ShardId id = new ShardId(1, 500 + f, 0);
            byte[] chunk = new byte[CHUNK];
            new Random(f).nextBytes(chunk);
            byte[] value = EntryFormat.encodeChunkValue(new StashEntryInfo(id, 0, CHUNK, Crc32c.of(chunk), 1000),
                    Unpooled.wrappedBuffer(chunk));
            byte[] header = new byte[ChunkLog.RECORD_HEADER_BYTES];
            header[0] = 0x52;
            header[1] = 1;
            System.arraycopy(id.encode(), 0, header, 2, ShardId.ENCODED_LENGTH);
            EntryFormat.putInt(header, 15, value.length);
            EntryFormat.putInt(header, 19, Crc32c.of(header, 0, 19));
            v1.add(new Appended(id, new ChunkLocation(0, bytes.size()), value));
            bytes.write(header);
            bytes.write(value);
        }
        Files.write(chunks(segmentName(0)), bytes.toByteArray());

        try (ChunkLog log = ChunkLog.open(dir, SEGMENT_BYTES)) {
            assertThat(scanned(log, 0)).containsExactlyElementsOf(v1.stream().map(Appended::id).toList());
            assertReads(log, v1);
            log.startActive();
            List<Appended> fresh = append(log, 2);
            assertThat(in(fresh, 1)).hasSize(2);
            empty(log, v1, 0);
            assertThat(files("spare-")).isEmpty();
            assertThat(files("seg-")).containsExactly(segmentName(1));
            assertReads(log, fresh);
        }
    }
}
