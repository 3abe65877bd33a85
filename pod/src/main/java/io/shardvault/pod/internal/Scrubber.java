package io.shardvault.pod.internal;

import io.shardvault.common.ShardId;
import io.shardvault.pod.api.ScrubFinding;
import io.shardvault.pod.api.ScrubStatus;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scrubber of one pod instance (issue #20, section 4): pass after pass it walks the instance's
 * shard files in {@link ShardId#KEY_ORDER} and checks every chunk against its CRC32C
 * ({@link ScrubCursor}), holding what it finds in {@link ScrubFindings} until a coordinator takes it
 * (op SCRUB_FINDINGS) and queues the repair. It owns no thread: a {@link ScrubLane} calls
 * {@link #step} (one chunk, or one shard opened, at a time) at the instance's rate.
 *
 * <pre>
 *  IDLE ──(interval since the last pass started)──▶ IN PASS ──(no shard left)──▶ IDLE
 *                                                     │  ▲
 *                          findings full: waits ──────┘  └── a coordinator acknowledges some
 * </pre>
 *
 * <p>Shards still waiting for their fsync are skipped (the stash holds their copy; the next pass
 * checks them). A damaged file is re-checked on a fresh open before it is reported, so a file a
 * repair rewrote meanwhile is not reported for its old content. A finding is durable before the
 * position moves past its shard, so a crash re-checks that shard and finds it held already: each
 * damaged shard is reported once while its finding is held.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>what</th><th>value</th></tr>
 *   <tr><td>position persisted</td><td>every {@value #PERSIST_EVERY_FILES} files or 10 s of a pass, and at its
 *       start, end and at close: a restart re-checks at most that much</td></tr>
 *   <tr><td>shard ids listed at once</td><td>{@value #PAGE}</td></tr>
 *   <tr><td>findings held</td><td>{@value ScrubFindings#MAX_HELD}, then the pass waits</td></tr>
 * </table>
 *
 * <p>Thread-safe (synchronized): the lane steps it while the RPC handler takes its findings.
 */
public final class Scrubber {
    private static final Logger LOG = LoggerFactory.getLogger(Scrubber.class);
    /** {@link #step}'s answer when there is nothing to do now (between passes, or findings full). */
    static final long IDLE = -1;
    static final int PAGE = 1000;
    static final int PERSIST_EVERY_FILES = 1000;
    private static final long PERSIST_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final String podName;
    private final Path stateDir;
    private final ShardStore store;
    private final FlushQueue flushQueue;
    private final ScrubFindings findings;
    private final long bytesPerSecond;
    private final Duration interval;
    private final PodMetrics metrics;
    private final Clock clock;
    private final ArrayDeque<ShardId> page = new ArrayDeque<>();
    private volatile ScrubPosition position;
    private ScrubPosition persisted;
    private ScrubCursor cursor;
    private long cursorBytes;
    private int unpersistedFiles;
    private long persistedAtNanos = System.nanoTime();

    Scrubber(String podName, Path stateDir, ShardStore store, FlushQueue flushQueue, ScrubFindings findings,
             ScrubPosition position, long bytesPerSecond, Duration interval, PodMetrics metrics, Clock clock) {
        this.podName = podName;
        this.stateDir = stateDir;
        this.store = store;
        this.flushQueue = flushQueue;
        this.findings = findings;
        this.position = position;
        this.persisted = position;
        this.bytesPerSecond = bytesPerSecond;
        this.interval = interval;
        this.metrics = metrics;
        this.clock = clock;
        metrics.bindScrubGauges(() -> this.position, findings::size);
    }

    /** The instance's rate in bytes per second; 0 when scrubbing is off. */
    public long bytesPerSecond() {
        return bytesPerSecond;
    }

    String podName() {
        return podName;
    }

    /** Where the scrubber is. */
    ScrubPosition position() {
        return position;
    }

    /** Where the scrubber is, with its rate and held findings, as STATS reports it. */
    ScrubStatus status() {
        ScrubPosition p = position;
        return new ScrubStatus(p.pass(), p.inPass(), p.passStartMillis(), p.after(), p.current().files(),
                p.current().bytes(), p.lastEndMillis(), p.lastDurationMillis(), p.last().files(), p.last().bytes(),
                p.last().corrupt(), p.last().missing(), bytesPerSecond, findings.size());
    }

    /**
     * Does the next piece of work: starts a pass when one is due, opens the next shard file, checks
     * its next chunk, or records its verdict.
     *
     * @return the bytes read (0 for bookkeeping), or {@link #IDLE} when there is nothing to do now
     */
    synchronized long step() throws IOException {
        long now = clock.millis();
        ScrubPosition p = position;
        if (!p.inPass()) {
            if (p.pass() > 0 && now - p.passStartMillis() < interval.toMillis()) {
                return IDLE;
            }
            page.clear();
            persist(p.startPass(now));
            LOG.info("pod {}: scrub pass {} starts", podName, position.pass());
            return 0;
        }
        if (cursor != null) {
            long read = cursor.verifyNext();
            if (read >= 0) {
                cursorBytes += read;
                metrics.scrubbed(read);
                return read;
            }
            return finishFile(now);
        }
        if (page.isEmpty()) {
            page.addAll(store.list(p.after(), PAGE));
            if (page.isEmpty()) {
                persist(p.complete(now));
                ScrubPosition done = position;
                LOG.info("pod {}: scrub pass {} complete in {} s: {} files, {} bytes, {} corrupt, {} with chunks "
                        + "missing", podName, done.pass(), done.lastDurationMillis() / 1000, done.last().files(),
                        done.last().bytes(), done.last().corrupt(), done.last().missing());
                return 0;
            }
        }
        ShardId id = page.poll();
        Optional<ScrubCursor> opened = flushQueue.contains(id) ? Optional.empty() : store.openScrub(id);
        if (opened.isEmpty()) {
            // Still being written (checked next pass), or deleted since the listing.
            position = p.skipped(id);
            return 0;
        }
        cursor = opened.get();
        cursorBytes = cursor.scannedBytes();
        metrics.scrubbed(cursorBytes);
        return cursorBytes;
    }

    /** The open file is checked: hold a confirmed finding, then move past it. */
    private long finishFile(long now) throws IOException {
        ShardId id = cursor.id();
        Optional<ScrubFinding.Kind> verdict = cursor.verdict();
        boolean found = false;
        if (verdict.isPresent()) {
            if (findings.full()) {
                return IDLE;
            }
            Optional<ScrubCursor> again = store.openScrub(id);
            if (again.isPresent()) {
                try (ScrubCursor fresh = again.get()) {
                    found = fresh.confirms(cursor);
                }
            }
            if (found && findings.add(id, verdict.get(), now)) {
                metrics.scrubFound(verdict.get());
                LOG.warn("pod {}: scrub found shard {} {} ({}): reported for repair", podName, id,
                        verdict.get() == ScrubFinding.Kind.CORRUPT ? "corrupt" : "with chunks missing",
                        store.pathOf(id));
            }
        }
        ScrubCursor done = cursor;
        cursor = null;
        done.close();
        metrics.scrubbedFile();
        ScrubPosition next = position.checked(id, cursorBytes,
                found && verdict.get() == ScrubFinding.Kind.CORRUPT, found && verdict.get() == ScrubFinding.Kind.MISSING);
        if (++unpersistedFiles >= PERSIST_EVERY_FILES || System.nanoTime() - persistedAtNanos >= PERSIST_EVERY_NANOS) {
            persist(next);
        } else {
            position = next;
        }
        return 0;
    }

    private void persist(ScrubPosition next) throws IOException {
        next.write(stateDir);
        position = next;
        persisted = next;
        unpersistedFiles = 0;
        persistedAtNanos = System.nanoTime();
    }

    /**
     * Forgets, durably, the findings numbered up to {@code ackThrough}, and returns the oldest
     * {@code limit} still held.
     */
    List<ScrubFinding> findings(long ackThrough, int limit) throws IOException {
        findings.acknowledge(ackThrough);
        return findings.oldest(limit);
    }

    /** Findings held, not yet acknowledged. */
    int heldFindings() {
        return findings.size();
    }

    /**
     * For tests: runs a whole pass now, at full speed (the one under way, or a new one even if the
     * interval has not passed); fails if the findings fill up.
     */
    synchronized void runPassNow() throws IOException {
        if (!position.inPass()) {
            page.clear();
            persist(position.startPass(clock.millis()));
        }
        while (position.inPass()) {
            if (step() == IDLE) {
                throw new IllegalStateException("scrub findings are full");
            }
        }
    }

    /** Stops: closes the open file and persists the position if it moved. */
    synchronized void close() {
        try {
            if (cursor != null) {
                cursor.close();
                cursor = null;
            }
            if (!position.equals(persisted)) {
                persist(position);
            }
        } catch (IOException e) {
            LOG.warn("pod {}: cannot persist the scrub position; the next start re-checks from the last one: {}",
                    podName, e.toString());
        }
    }
}
