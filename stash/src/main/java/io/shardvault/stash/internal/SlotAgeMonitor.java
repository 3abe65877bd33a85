package io.shardvault.stash.internal;

import io.shardvault.common.DaemonThreads;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Periodically names, in a WARN, every pod slot whose oldest stash entry is older than
 * {@code slotAgeWarning}: that slot's pod is not purging (down, stuck flushing, or its purge
 * events are not arriving), and its stash copies are piling up.
 *
 * <p>Thread-safe. Runs on its own daemon thread until {@link #close()}.
 */
public final class SlotAgeMonitor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SlotAgeMonitor.class);

    private final Occupancy occupancy;
    private final StashMetrics metrics;
    private final Clock clock;
    private final Duration slotAgeWarning;
    private final ScheduledExecutorService timer;

    /** A pod slot whose oldest entry is too old. */
    public record StaleSlot(int vaultId, int shardIndex, Duration oldestEntryAge) {
    }

    public SlotAgeMonitor(Occupancy occupancy, StashMetrics metrics, Clock clock, Duration slotAgeWarning) {
        this.occupancy = occupancy;
        this.metrics = metrics;
        this.clock = clock;
        this.slotAgeWarning = slotAgeWarning;
        this.timer = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("stash-slot-age"));
    }

    public void start(Duration interval) {
        timer.scheduleWithFixedDelay(() -> {
            try {
                check();
            } catch (RuntimeException e) {
                LOG.error("stash slot-age check failed", e);
            }
        }, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Runs one check now: logs each stale slot and returns them. */
    public List<StaleSlot> check() {
        long now = clock.millis();
        List<StaleSlot> stale = new ArrayList<>();
        for (Occupancy.SlotOldest slot : occupancy.oldestBySlot()) {
            Duration age = Duration.ofMillis(Math.max(0, now - slot.oldestWrittenAtMillis()));
            if (age.compareTo(slotAgeWarning) > 0) {
                stale.add(new StaleSlot(slot.vaultId(), slot.shardIndex(), age));
                LOG.warn("stash slot vaultId={} shardIndex={} has an entry {} old, over stash.slotAgeWarning={}:"
                        + " pod {} of vault {} is not purging", slot.vaultId(), slot.shardIndex(), age, slotAgeWarning,
                        slot.shardIndex(), slot.vaultId());
            }
        }
        metrics.staleSlots(stale.size());
        return stale;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
