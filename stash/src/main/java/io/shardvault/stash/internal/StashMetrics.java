package io.shardvault.stash.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The meters of one stash server, all tagged {@code server=host:port}. {@link #close()} removes
 * them from the registry, so a server restarted in the same process registers fresh ones.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>meaning</th></tr>
 *   <tr><td>shardvault.stash.entries</td><td>gauge</td><td>stored entries</td></tr>
 *   <tr><td>shardvault.stash.bytes</td><td>gauge</td><td>sum of stored chunk lengths (what the budget counts)</td></tr>
 *   <tr><td>shardvault.stash.capacity.bytes</td><td>gauge</td><td>the byte budget</td></tr>
 *   <tr><td>shardvault.stash.oldest.entry.age</td><td>time gauge</td><td>age of the oldest entry; 0 when empty</td></tr>
 *   <tr><td>shardvault.stash.stale.slots</td><td>gauge</td><td>pod slots whose oldest entry exceeds
 *       slotAgeWarning, as of the last check</td></tr>
 *   <tr><td>shardvault.stash.full</td><td>counter</td><td>PUTs answered STASH_FULL</td></tr>
 *   <tr><td>shardvault.stash.corrupt</td><td>counter</td><td>reads that found a corrupt entry</td></tr>
 *   <tr><td>shardvault.stash.puts.after.purge</td><td>counter</td><td>PUTs that arrived after their id's purge:
 *       acknowledged, not stored (see {@link EarlyPurges})</td></tr>
 *   <tr><td>shardvault.stash.commit</td><td>timer</td><td>one group commit: WAL write and sync</td></tr>
 *   <tr><td>shardvault.stash.commit.ops</td><td>summary</td><td>requests (PUTs and PURGEs) per group commit</td></tr>
 *   <tr><td>shardvault.stash.requests</td><td>timer</td><td>requests served, tagged {@code op} and
 *       {@code outcome} ({@code ok} or the error code), from arrival at the handler to the answer</td></tr>
 *   <tr><td>shardvault.stash.chunklog.segments</td><td>gauge</td><td>chunk log segment files, all partitions</td></tr>
 *   <tr><td>shardvault.stash.chunklog.live.bytes</td><td>gauge</td><td>segment bytes of entries alive</td></tr>
 *   <tr><td>shardvault.stash.chunklog.dead.bytes</td><td>gauge</td><td>segment bytes of purged or replaced
 *       entries not yet given back (their segment still holds live ones)</td></tr>
 *   <tr><td>shardvault.stash.chunklog.spare.bytes</td><td>gauge</td><td>disk held by emptied segments kept for
 *       reuse (spares)</td></tr>
 * </table>
 *
 * <p>Thread-safe.
 */
public final class StashMetrics implements AutoCloseable {
    private final MeterRegistry registry;
    private final List<Meter> meters = new ArrayList<>();
    private final AtomicInteger staleSlots = new AtomicInteger();
    private final Counter full;
    private final Counter corrupt;
    private final Counter putsAfterPurge;
    private final Timer commit;
    private final Timer queueWait;
    private final Timer write;
    private final Timer sync;
    private final DistributionSummary commitOps;
    private final Tags tags;
    private final java.util.concurrent.ConcurrentMap<String, Timer> requests =
            new java.util.concurrent.ConcurrentHashMap<>();

    public StashMetrics(MeterRegistry registry, String server, Occupancy occupancy, long capacityBytes, Clock clock) {
        this.registry = registry;
        Tags tags = Tags.of("server", server);
        this.tags = tags;
        meters.add(Gauge.builder("shardvault.stash.entries", occupancy, Occupancy::entries).tags(tags)
                .description("stored entries").register(registry));
        meters.add(Gauge.builder("shardvault.stash.bytes", occupancy, Occupancy::bytes).tags(tags).baseUnit("bytes")
                .description("sum of stored chunk lengths").register(registry));
        meters.add(Gauge.builder("shardvault.stash.capacity.bytes", () -> capacityBytes).tags(tags).baseUnit("bytes")
                .description("the byte budget").register(registry));
        meters.add(TimeGauge.builder("shardvault.stash.oldest.entry.age", occupancy, TimeUnit.MILLISECONDS,
                o -> ageMillis(o, clock)).tags(tags).description("age of the oldest entry").register(registry));
        meters.add(Gauge.builder("shardvault.stash.stale.slots", staleSlots, AtomicInteger::get).tags(tags)
                .description("pod slots whose oldest entry exceeds slotAgeWarning").register(registry));
        full = Counter.builder("shardvault.stash.full").tags(tags).description("PUTs answered STASH_FULL")
                .register(registry);
        corrupt = Counter.builder("shardvault.stash.corrupt").tags(tags)
                .description("reads that found a corrupt entry").register(registry);
        putsAfterPurge = Counter.builder("shardvault.stash.puts.after.purge").tags(tags)
                .description("PUTs that arrived after their id's purge: acknowledged, not stored").register(registry);
        commit = Timer.builder("shardvault.stash.commit").tags(tags).publishPercentiles(0.5, 0.99)
                .description("one group commit: from the writer taking a batch to its sync's end").register(registry);
        commitOps = DistributionSummary.builder("shardvault.stash.commit.ops").tags(tags)
                .description("requests per group commit").register(registry);
        // The commit path broken down: where a PUT's time goes between arrival and acknowledgement.
        queueWait = Timer.builder("shardvault.stash.commit.queue").tags(tags)
                .description("from a batch's oldest request entering the queue to the writer taking it")
                .register(registry);
        write = Timer.builder("shardvault.stash.commit.write").tags(tags)
                .description("writer role, one batch: meta lookup, budget check, unsynced WAL write and memtables")
                .register(registry);
        sync = Timer.builder("shardvault.stash.commit.sync").tags(tags)
                .description("syncer role: one WAL fdatasync, covering one or more batches").register(registry);
        meters.add(queueWait);
        meters.add(write);
        meters.add(sync);
        meters.add(full);
        meters.add(corrupt);
        meters.add(putsAfterPurge);
        meters.add(commit);
        meters.add(commitOps);
    }

    /** Registers the chunk log gauges, summed over the partitions' stores. */
    public void chunkLogs(List<RocksShardStore> stores) {
        meters.add(Gauge.builder("shardvault.stash.chunklog.segments",
                () -> stores.stream().mapToLong(s -> s.chunkLogStats().segments()).sum()).tags(tags)
                .description("chunk log segment files").register(registry));
        meters.add(Gauge.builder("shardvault.stash.chunklog.live.bytes",
                () -> stores.stream().mapToLong(s -> s.chunkLogStats().liveBytes()).sum()).tags(tags)
                .baseUnit("bytes").description("chunk log bytes of live entries").register(registry));
        meters.add(Gauge.builder("shardvault.stash.chunklog.dead.bytes",
                () -> stores.stream().mapToLong(s -> s.chunkLogStats().deadBytes()).sum()).tags(tags)
                .baseUnit("bytes").description("chunk log bytes of purged entries not yet given back")
                .register(registry));
        meters.add(Gauge.builder("shardvault.stash.chunklog.spare.bytes",
                () -> stores.stream().mapToLong(s -> s.chunkLogStats().spareBytes()).sum()).tags(tags)
                .baseUnit("bytes").description("disk held by emptied chunk log segments kept for reuse")
                .register(registry));
    }

    /** Age of the oldest entry in milliseconds, 0 when the stash is empty. */
    static long ageMillis(Occupancy occupancy, Clock clock) {
        long oldest = occupancy.oldestWrittenAtMillis();
        return oldest == Long.MAX_VALUE ? 0 : Math.max(0, clock.millis() - oldest);
    }

    void stashFull() {
        full.increment();
    }

    void corrupt() {
        corrupt.increment();
    }

    void putAfterPurge() {
        putsAfterPurge.increment();
    }

    void written(long queuedNanos, long writeNanos) {
        queueWait.record(queuedNanos, TimeUnit.NANOSECONDS);
        write.record(writeNanos, TimeUnit.NANOSECONDS);
    }

    void synced(long nanos) {
        sync.record(nanos, TimeUnit.NANOSECONDS);
    }

    void committed(int ops, long nanos) {
        commit.record(nanos, TimeUnit.NANOSECONDS);
        commitOps.record(ops);
    }

    /** One request answered: its op name, {@code ok} or its error code, and how long it took. */
    void request(String op, String outcome, long nanos) {
        requests.computeIfAbsent(op + "/" + outcome, key -> Timer.builder("shardvault.stash.requests")
                .tags(tags).tag("op", op).tag("outcome", outcome).publishPercentiles(0.5, 0.99)
                .description("stash requests, from arrival at the handler to the answer").register(registry))
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    void staleSlots(int count) {
        staleSlots.set(count);
    }

    @Override
    public void close() {
        for (Meter meter : meters) {
            registry.remove(meter);
        }
        for (Meter meter : requests.values()) {
            registry.remove(meter);
        }
    }
}
