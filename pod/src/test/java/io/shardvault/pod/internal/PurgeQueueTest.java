package io.shardvault.pod.internal;

import io.shardvault.common.ShardId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(60)
class PurgeQueueTest {
    @TempDir
    Path dir;

    private static List<ShardId> ids(int from, int n) {
        List<ShardId> out = new ArrayList<>();
        for (int i = from; i < from + n; i++) {
            out.add(new ShardId(1, i, 2));
        }
        return out;
    }

    private static List<ShardId> idsOf(PurgeQueue.Batch b) {
        return b.events().stream().map(PurgeQueue.Event::id).toList();
    }

    @Test
    void eventsAreReadInOrderAndConsumedOnlyOnCommit() throws IOException {
        try (PurgeQueue q = PurgeQueue.open(dir, 1 << 20, Clock.systemUTC())) {
            q.append(ids(0, 10));
            assertThat(q.depth()).isEqualTo(10);
            PurgeQueue.Batch first = q.peek(4);
            assertThat(idsOf(first)).isEqualTo(ids(0, 4));
            assertThat(idsOf(q.peek(4))).isEqualTo(ids(0, 4)); // not consumed yet: redelivered
            q.commit(first);
            assertThat(q.depth()).isEqualTo(6);
            assertThat(idsOf(q.peek(100))).isEqualTo(ids(4, 6));
        }
    }

    @Test
    void theQueueAndItsCheckpointSurviveARestart() throws IOException {
        try (PurgeQueue q = PurgeQueue.open(dir, 1 << 20, Clock.systemUTC())) {
            q.append(ids(0, 5));
            q.append(ids(5, 5));
            q.commit(q.peek(3));
        }
        try (PurgeQueue q = PurgeQueue.open(dir, 1 << 20, Clock.systemUTC())) {
            assertThat(q.depth()).isEqualTo(7);
            assertThat(idsOf(q.peek(100))).isEqualTo(ids(3, 7));
        }
    }

    @Test
    void aTornLastRecordIsTruncatedOnOpen() throws IOException {
        try (PurgeQueue q = PurgeQueue.open(dir, 1 << 20, Clock.systemUTC())) {
            q.append(ids(0, 3));
        }
        Path segment;
        try (Stream<Path> files = Files.list(dir)) {
            segment = files.filter(p -> p.getFileName().toString().endsWith(".log")).findFirst().orElseThrow();
        }
        long good = Files.size(segment);
        Files.write(segment, new byte[] {0, 21, 1, 2, 3}, StandardOpenOption.APPEND);
        try (PurgeQueue q = PurgeQueue.open(dir, 1 << 20, Clock.systemUTC())) {
            assertThat(Files.size(segment)).isEqualTo(good);
            assertThat(q.depth()).isEqualTo(3);
            q.append(ids(3, 1));
            assertThat(idsOf(q.peek(100))).isEqualTo(ids(0, 4));
        }
    }

    @Test
    void segmentsRollOverAndConsumedOnesAreDeletedWhileMemoryStaysOneBatch() throws IOException {
        long segmentBytes = PurgeQueue.SEGMENT_HEADER_BYTES + 10L * PurgeQueue.RECORD_BYTES;
        try (PurgeQueue q = PurgeQueue.open(dir, segmentBytes, Clock.systemUTC())) {
            for (int i = 0; i < 50; i++) {
                q.append(ids(i * 4, 4));
            }
            assertThat(q.depth()).isEqualTo(200);
            assertThat(q.segmentCount()).isGreaterThanOrEqualTo(20);
            List<ShardId> delivered = new ArrayList<>();
            for (int rounds = 0; rounds < 1000 && q.depth() > 0; rounds++) {
                PurgeQueue.Batch b = q.peek(7);
                assertThat(b.events()).hasSizeLessThanOrEqualTo(7);
                delivered.addAll(idsOf(b));
                q.commit(b);
            }
            assertThat(delivered).isEqualTo(ids(0, 200));
            assertThat(q.segmentCount()).isEqualTo(1);
            assertThat(q.oldestAgeMillis()).isZero();
        }
        try (PurgeQueue q = PurgeQueue.open(dir, segmentBytes, Clock.systemUTC())) {
            assertThat(q.depth()).isZero();
            assertThat(q.peek(10).events()).isEmpty();
        }
    }

    @Test
    void theOldestEventsAgeFollowsTheHeadOfTheQueue() throws IOException {
        long[] now = {1_000_000};
        Clock clock = new Clock() {
            @Override
            public ZoneOffset getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return Instant.ofEpochMilli(now[0]);
            }
        };
        try (PurgeQueue q = PurgeQueue.open(dir, 1 << 20, clock)) {
            assertThat(q.oldestAgeMillis()).isZero();
            q.append(ids(0, 1));
            now[0] += 500;
            q.append(ids(1, 1));
            now[0] += 250;
            assertThat(q.oldestAgeMillis()).isEqualTo(750);
            q.commit(q.peek(1));
            assertThat(q.oldestAgeMillis()).isEqualTo(250);
        }
    }
}
