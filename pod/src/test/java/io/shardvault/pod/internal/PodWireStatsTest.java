package io.shardvault.pod.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.shardvault.pod.api.PodAssignment;
import io.shardvault.pod.api.PodStats;
import io.shardvault.pod.api.internal.PodWire;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The STATS header: every field round-trips, and an older pod's shorter answer still decodes. */
class PodWireStatsTest {
    private static final PodStats STATS = new PodStats(1, 2, 3, 4, 5, 6, 7, 8);

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
    void aPodOlderThanFailedTomesReportsNone() {
        ByteBuf h = PodWire.statsHeader(STATS, ByteBufAllocator.DEFAULT);
        try {
            h.writerIndex(h.writerIndex() - 4); // the answer before the failedTomes field
            assertThat(PodWire.decodeStats(h)).isEqualTo(new PodStats(1, 2, 3, 4, 5, 6, 7, 0));
        } finally {
            h.release();
        }
    }

    @Test
    void aPodOlderThanAssignReportsUnassignedAndNoFailedTomes() {
        ByteBuf h = PodWire.statsHeader(STATS, ByteBufAllocator.DEFAULT);
        try {
            h.writerIndex(h.writerIndex() - 12);
            assertThat(PodWire.decodeStats(h)).isEqualTo(new PodStats(1, 2, 3, 4, 5, 6, PodAssignment.UNASSIGNED, 0));
        } finally {
            h.release();
        }
    }
}
