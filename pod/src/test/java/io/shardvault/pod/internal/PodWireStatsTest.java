package io.shardvault.pod.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.shardvault.common.ShardId;
import io.shardvault.pod.api.FailedTome;
import io.shardvault.pod.api.PodAssignment;
import io.shardvault.pod.api.PodStats;
import io.shardvault.pod.api.ScrubStatus;
import io.shardvault.pod.api.internal.PodWire;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The STATS header: every field round-trips, and an older pod's shorter answer still decodes. */
class PodWireStatsTest {
    private static final List<FailedTome> FAILED = List.of(
            new FailedTome(1, "/data/disk1/shardvault", 1_764_000_000_000L, "shard 1:7:3 failed its fsync", true),
            new FailedTome(3, "/data/disk3/sv", 0, "unreadable failure record, first line 'x'", false));
    private static final ScrubStatus SCRUB = new ScrubStatus(9, true, 10, Optional.of(new ShardId(1, 4242, 3)), 11,
            12, 13, 14, 15, 16, 17, 18, 19, 20);
    private static final PodStats STATS = new PodStats(1, 2, 3, 4, 5, 6, 7, FAILED, Optional.of(SCRUB));

    private static void assertRoundTrips(PodStats stats) {
        ByteBuf h = PodWire.statsHeader(stats, ByteBufAllocator.DEFAULT);
        try {
            assertThat(PodWire.decodeStats(h)).isEqualTo(stats);
            assertThat(h.readableBytes()).isZero();
        } finally {
            h.release();
        }
    }

    @Test
    void everyFieldRoundTrips() {
        assertRoundTrips(STATS);
    }

    @Test
    void aStatusWithoutAScrubPositionRoundTrips() {
        assertRoundTrips(new PodStats(1, 2, 3, 4, 5, 6, 7, List.of(), Optional.of(new ScrubStatus(0, false, 0,
                Optional.empty(), 0, 0, 0, 0, 0, 0, 0, 0, 8L << 20, 0))));
    }

    @Test
    void aPodOlderThanTheScrubStatusReportsNone() {
        PodStats stats = new PodStats(1, 2, 3, 4, 5, 6, 7, FAILED, Optional.of(SCRUB));
        ByteBuf h = PodWire.statsHeader(stats, ByteBufAllocator.DEFAULT);
        try {
            h.writerIndex(h.writerIndex() - (1 + 8 + 1 + 8 + 1 + ShardId.ENCODED_LENGTH + 9 * 8 + 4));
            assertThat(PodWire.decodeStats(h)).isEqualTo(new PodStats(1, 2, 3, 4, 5, 6, 7, FAILED, Optional.empty()));
        } finally {
            h.release();
        }
    }

    @Test
    void aPodThatCountsFailedTomesWithoutDetailsReportsThatManyUnknownOnes() {
        ByteBuf h = PodWire.statsHeader(new PodStats(1, 2, 3, 4, 5, 6, 7, List.of(), Optional.empty()), ByteBufAllocator.DEFAULT);
        try {
            h.writerIndex(h.writerIndex() - 1); // the previous version's answer: a count and nothing more
            h.setInt(h.writerIndex() - 4, 2);
            assertThat(PodWire.decodeStats(h).failedTomes()).hasSize(2).allSatisfy(t -> {
                assertThat(t.tome()).isEqualTo(-1);
                assertThat(t.reason()).startsWith("unknown");
            });
        } finally {
            h.release();
        }
    }

    @Test
    void aPodOlderThanFailedTomesReportsNone() {
        ByteBuf h = PodWire.statsHeader(new PodStats(1, 2, 3, 4, 5, 6, 7, List.of(), Optional.empty()), ByteBufAllocator.DEFAULT);
        try {
            h.writerIndex(h.writerIndex() - 5); // the answer before the failedTomes field
            assertThat(PodWire.decodeStats(h)).isEqualTo(new PodStats(1, 2, 3, 4, 5, 6, 7, List.of(), Optional.empty()));
        } finally {
            h.release();
        }
    }

    @Test
    void aPodOlderThanAssignReportsUnassignedAndNoFailedTomes() {
        ByteBuf h = PodWire.statsHeader(new PodStats(1, 2, 3, 4, 5, 6, 7, List.of(), Optional.empty()), ByteBufAllocator.DEFAULT);
        try {
            h.writerIndex(h.writerIndex() - 13);
            assertThat(PodWire.decodeStats(h))
                    .isEqualTo(new PodStats(1, 2, 3, 4, 5, 6, PodAssignment.UNASSIGNED, List.of(),
                            Optional.empty()));
        } finally {
            h.release();
        }
    }
}
