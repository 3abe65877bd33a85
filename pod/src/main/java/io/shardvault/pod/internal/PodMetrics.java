package io.shardvault.pod.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.shardvault.pod.api.ScrubFinding;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * The meters of one pod instance, all tagged {@code pod=<name>}.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>meaning</th></tr>
 *   <tr><td>shardvault.pod.unflushed.bytes</td><td>gauge</td><td>bytes acknowledged in buffered mode and not yet fsynced</td></tr>
 *   <tr><td>shardvault.pod.flush.latency</td><td>timer</td><td>one flusher batch on one tome: its fsyncs, directory syncs and
 *       purge-queue append</td></tr>
 *   <tr><td>shardvault.pod.flush.shards</td><td>counter</td><td>shards fsynced by the flusher</td></tr>
 *   <tr><td>shardvault.pod.flush.errors</td><td>counter</td><td>fsyncs that failed (the shard is rewritten from its stash
 *       copy before any purge)</td></tr>
 *   <tr><td>shardvault.pod.tomes.failed</td><td>gauge</td><td>tomes marked failed: a shard on them could not be made
 *       durable again; they take no writes and purge nothing (health: anything above 0 needs an operator)</td></tr>
 *   <tr><td>shardvault.pod.tomes.failed.unrecorded</td><td>gauge</td><td>failed tomes whose failure record the state
 *       directory refused: the flusher retries it every round, but a restart before it lands brings the tome back
 *       healthy (health: above 0, do not restart the pod; fix its state directory)</td></tr>
 *   <tr><td>shardvault.pod.purge.queue.depth</td><td>gauge</td><td>purge events queued durably and not yet delivered</td></tr>
 *   <tr><td>shardvault.pod.purge.queue.oldest.age</td><td>gauge (ms)</td><td>age of the oldest undelivered event; 0 when none</td></tr>
 *   <tr><td>shardvault.pod.purge.delivered</td><td>counter</td><td>events acknowledged by the stash</td></tr>
 *   <tr><td>shardvault.pod.purge.failures</td><td>counter</td><td>failed delivery attempts (each retried with backoff)</td></tr>
 *   <tr><td>shardvault.pod.crc.failures</td><td>counter, tag where=write|read</td><td>chunks rejected on arrival, stored
 *       chunks that failed their CRC on read</td></tr>
 *   <tr><td>shardvault.pod.reads</td><td>counter, tag path=event-loop|worker</td><td>chunk reads answered from the page
 *       cache on the RPC event loop, and by a worker thread (file not open yet, bytes not in memory, errors)</td></tr>
 *   <tr><td>shardvault.pod.recovery.restored</td><td>counter</td><td>shards rewritten from their stash copy: at start,
 *       and by the flusher after a failed fsync</td></tr>
 *   <tr><td>shardvault.pod.write.latency</td><td>timer, tag mode</td><td>a chunk write, arrival to acknowledgement</td></tr>
 *   <tr><td>shardvault.pod.write.refused.buffered</td><td>counter</td><td>buffered writes refused as not recoverable
 *       (no assignment holding the slot, or no stash): the coordinator writes them durably</td></tr>
 *   <tr><td>shardvault.pod.scrub.bytes</td><td>counter</td><td>shard bytes the scrubber read and checked</td></tr>
 *   <tr><td>shardvault.pod.scrub.files</td><td>counter</td><td>shard files the scrubber checked</td></tr>
 *   <tr><td>shardvault.pod.scrub.found</td><td>counter, tag kind=corrupt|missing</td><td>damaged shard files found
 *       (confirmed, and not already held)</td></tr>
 *   <tr><td>shardvault.pod.scrub.findings.held</td><td>gauge</td><td>findings not yet acknowledged by a coordinator;
 *       at 10,000 the scrubber waits</td></tr>
 *   <tr><td>shardvault.pod.scrub.pass.files</td><td>gauge</td><td>files checked so far by the current pass (its
 *       progress: compare with the last pass's)</td></tr>
 *   <tr><td>shardvault.pod.scrub.pass.last.end</td><td>gauge (s)</td><td>when the last complete pass ended, epoch
 *       seconds; 0 before the first (alert when it grows old)</td></tr>
 *   <tr><td>shardvault.pod.scrub.pass.last.duration</td><td>gauge (s)</td><td>how long the last complete pass took</td></tr>
 *   <tr><td>shardvault.pod.scrub.pass.last.files</td><td>gauge</td><td>files the last complete pass checked</td></tr>
 *   <tr><td>shardvault.pod.scrub.pass.last.found</td><td>gauge, tag kind=corrupt|missing</td><td>damaged files the last
 *       complete pass found</td></tr>
 * </table>
 *
 * <p>Thread-safe.
 */
public final class PodMetrics {
    private final MeterRegistry registry;
    private final Tags tags;
    private final Timer flushLatency;
    private final Counter flushShards;
    private final Counter flushErrors;
    private final Counter purgeDelivered;
    private final Counter purgeFailures;
    private final Counter crcOnWrite;
    private final Counter crcOnRead;
    private final Counter restored;
    private final Counter readsAtOnce;
    private final Counter readsByWorkers;
    private final Timer writeBuffered;
    private final Timer writeDurable;
    private final Counter bufferedRefused;
    private final Counter scrubBytes;
    private final Counter scrubFiles;
    private final Counter scrubCorrupt;
    private final Counter scrubMissing;

    public PodMetrics(MeterRegistry registry, String podName) {
        this.registry = registry;
        this.tags = Tags.of("pod", podName);
        this.flushLatency = Timer.builder("shardvault.pod.flush.latency").tags(tags).publishPercentiles(0.5, 0.99)
                .description("One flusher batch on one tome").register(registry);
        this.flushShards = Counter.builder("shardvault.pod.flush.shards").tags(tags).register(registry);
        this.flushErrors = Counter.builder("shardvault.pod.flush.errors").tags(tags).register(registry);
        this.purgeDelivered = Counter.builder("shardvault.pod.purge.delivered").tags(tags).register(registry);
        this.purgeFailures = Counter.builder("shardvault.pod.purge.failures").tags(tags).register(registry);
        this.crcOnWrite = Counter.builder("shardvault.pod.crc.failures").tags(tags.and("where", "write")).register(registry);
        this.crcOnRead = Counter.builder("shardvault.pod.crc.failures").tags(tags.and("where", "read")).register(registry);
        this.restored = Counter.builder("shardvault.pod.recovery.restored").tags(tags).register(registry);
        this.readsAtOnce = Counter.builder("shardvault.pod.reads").tags(tags.and("path", "event-loop"))
                .description("Reads answered from the page cache on the RPC event loop").register(registry);
        this.readsByWorkers = Counter.builder("shardvault.pod.reads").tags(tags.and("path", "worker"))
                .description("Reads answered by a worker thread: file not open yet, bytes not in memory, errors")
                .register(registry);
        this.writeBuffered = Timer.builder("shardvault.pod.write.latency").tags(tags.and("mode", "buffered"))
                .publishPercentiles(0.5, 0.99).register(registry);
        this.writeDurable = Timer.builder("shardvault.pod.write.latency").tags(tags.and("mode", "durable"))
                .publishPercentiles(0.5, 0.99).register(registry);
        this.bufferedRefused = Counter.builder("shardvault.pod.write.refused.buffered").tags(tags).register(registry);
        this.scrubBytes = Counter.builder("shardvault.pod.scrub.bytes").tags(tags).baseUnit("bytes").register(registry);
        this.scrubFiles = Counter.builder("shardvault.pod.scrub.files").tags(tags).register(registry);
        this.scrubCorrupt = Counter.builder("shardvault.pod.scrub.found").tags(tags.and("kind", "corrupt"))
                .register(registry);
        this.scrubMissing = Counter.builder("shardvault.pod.scrub.found").tags(tags.and("kind", "missing"))
                .register(registry);
    }

    /** Registers the scrubber's gauges, read from its position and findings; the suppliers must be cheap. */
    void bindScrubGauges(Supplier<ScrubPosition> position, Supplier<Number> heldFindings) {
        Gauge.builder("shardvault.pod.scrub.findings.held", heldFindings).tags(tags).register(registry);
        Gauge.builder("shardvault.pod.scrub.pass.files", () -> position.get().current().files()).tags(tags)
                .register(registry);
        Gauge.builder("shardvault.pod.scrub.pass.last.end", () -> position.get().lastEndMillis() / 1000).tags(tags)
                .baseUnit("seconds").register(registry);
        Gauge.builder("shardvault.pod.scrub.pass.last.duration", () -> position.get().lastDurationMillis() / 1000.0)
                .tags(tags).baseUnit("seconds").register(registry);
        Gauge.builder("shardvault.pod.scrub.pass.last.files", () -> position.get().last().files()).tags(tags)
                .register(registry);
        Gauge.builder("shardvault.pod.scrub.pass.last.found", () -> position.get().last().corrupt())
                .tags(tags.and("kind", "corrupt")).register(registry);
        Gauge.builder("shardvault.pod.scrub.pass.last.found", () -> position.get().last().missing())
                .tags(tags.and("kind", "missing")).register(registry);
    }

    void scrubbed(long bytes) {
        scrubBytes.increment(bytes);
    }

    void scrubbedFile() {
        scrubFiles.increment();
    }

    void scrubFound(ScrubFinding.Kind kind) {
        (kind == ScrubFinding.Kind.CORRUPT ? scrubCorrupt : scrubMissing).increment();
    }

    /** Registers the gauges that read live state; the suppliers must be cheap and thread-safe. */
    public void bindGauges(Supplier<Number> unflushedBytes, Supplier<Number> queueDepth, Supplier<Number> oldestAgeMs,
                           Supplier<Number> failedTomes, Supplier<Number> unrecordedFailedTomes) {
        Gauge.builder("shardvault.pod.tomes.failed", failedTomes).tags(tags)
                .description("Tomes that could not make a shard durable again: no writes, no purges").register(registry);
        Gauge.builder("shardvault.pod.tomes.failed.unrecorded", unrecordedFailedTomes).tags(tags)
                .description("Failed tomes whose failure record the state directory refused: a restart now would "
                        + "bring them back healthy").register(registry);
        Gauge.builder("shardvault.pod.unflushed.bytes", unflushedBytes).tags(tags).baseUnit("bytes").register(registry);
        Gauge.builder("shardvault.pod.purge.queue.depth", queueDepth).tags(tags).register(registry);
        Gauge.builder("shardvault.pod.purge.queue.oldest.age", oldestAgeMs).tags(tags).baseUnit("milliseconds")
                .register(registry);
    }

    void flushed(Duration took, int shards) {
        flushLatency.record(took);
        flushShards.increment(shards);
    }

    void flushError() {
        flushErrors.increment();
    }

    void purgesDelivered(int n) {
        purgeDelivered.increment(n);
    }

    void purgeFailure() {
        purgeFailures.increment();
    }

    void bufferedRefused() {
        bufferedRefused.increment();
    }

    void crcFailureOnWrite() {
        crcOnWrite.increment();
    }

    void readAtOnce() {
        readsAtOnce.increment();
    }

    void readByWorker() {
        readsByWorkers.increment();
    }

    void crcFailureOnRead() {
        crcOnRead.increment();
    }

    void restoredShard() {
        restored.increment();
    }

    void write(boolean durable, long nanos) {
        (durable ? writeDurable : writeBuffered).record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    }
}
