package io.shardvault.pod.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.shardvault.pod.api.FailedTome;
import io.shardvault.pod.api.PodAssignment;
import io.shardvault.pod.api.PodStats;
import io.shardvault.pod.api.internal.PodWire;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The STATS header: every field round-trips, and an older pod's shorter answer still decodes. */
class PodWireStatsTest {
    private static final List<FailedTome> FAILED = List.of(
            new FailedTome(1, "/data/disk1/shardvault", 1_764_000_000_000L, "shard 1:7:3 failed its fsync", true),
            new FailedTome(3, "/data/disk3/sv", 0, "unreadable failure record, first line 'x'", false));
    private static final PodStats STATS = new PodStats(1, 2, 3, 4, 5, 6, 7, FAILED);

    @Test
    void everyFieldRoundTrips() {
        ByteBuf h = PodWire.statsHeader(STATS, ByteBufAllocator.DEFAULT);
        try {
            assertThat(PodWire.decodeStats(h)).isEqualTo(STATS);
            assertThat(h.readableBytes()).isZero();
        } finally {
            h.release();
        }
    }

    @Test
    void aPodThatCountsFailedTomesWithoutDetailsReportsThatManyUnknownOnes() {
        ByteBuf h = PodWire.statsHeader(new PodStats(1, 2, 3, 4, 5, 6, 7, List.of()), ByteBufAllocator.DEFAULT);
        try {
            h.setInt(h.writerIndex() - 4, 2); // the previous version's answer: a count and nothing more
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
        ByteBuf h = PodWire.statsHeader(new PodStats(1, 2, 3, 4, 5, 6, 7, List.of()), ByteBufAllocator.DEFAULT);
        try {
            h.writerIndex(h.writerIndex() - 4); // the answer before the failedTomes field
            assertThat(PodWire.decodeStats(h)).isEqualTo(new PodStats(1, 2, 3, 4, 5, 6, 7, List.of()));
        } finally {
            h.release();
        }
    }

    @Test
    void aPodOlderThanAssignReportsUnassignedAndNoFailedTomes() {
        ByteBuf h = PodWire.statsHeader(new PodStats(1, 2, 3, 4, 5, 6, 7, List.of()), ByteBufAllocator.DEFAULT);
        try {
            h.writerIndex(h.writerIndex() - 12);
            assertThat(PodWire.decodeStats(h))
                    .isEqualTo(new PodStats(1, 2, 3, 4, 5, 6, PodAssignment.UNASSIGNED, List.of()));
        } finally {
            h.release();
        }
    }
}
