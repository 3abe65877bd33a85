package io.shardvault.coordinator.collect;

import io.shardvault.common.ShardId;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.FileKey;
import io.shardvault.coordinator.catalog.FileState;
import io.shardvault.coordinator.data.Vault;
import io.shardvault.coordinator.data.VaultDirectory;
import io.shardvault.coordinator.repair.Bounded;
import io.shardvault.coordinator.repair.PeriodicPass;
import io.shardvault.coordinator.repair.RateLimiter;
import io.shardvault.pod.api.AgedShard;
import io.shardvault.pod.api.PodAgedPage;
import io.shardvault.pod.api.PodClient;
import io.shardvault.pod.api.PodOps;
import io.shardvault.stash.api.StashClient;
import io.shardvault.stash.api.StashEntryInfo;
import io.shardvault.stash.api.StashPage;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes orphans (issue #20, section 5): shards on pods and stash entries of files no catalog entry refers
 * to. Every {@code collect.interval} a pass pages through each pod's aged listing ({@link PodOps#LIST_AGED})
 * and each stash server's listing of each slot, asks the catalog what each file seen is
 * ({@link Catalog#fileStates}, a page at a time, so only the unreferenced files are kept in memory), and
 * collects the files that are
 * <ul>
 *   <li>{@link FileState#ABSENT} and whose newest shard or stash entry is older than {@code collect.grace}, or</li>
 *   <li>{@link FileState#COLLECTED} already (fenced by an earlier pass that did not finish their deletes).</li>
 * </ul>
 * {@link FileState#RELEASED} files are the file reaper's and {@link FileState#LIVE} ones are left alone.
 *
 * <p>Collecting a file is, in this order: the catalog's fence ({@link Catalog#collectFiles}), which refuses any
 * file a version, part or upload refers to and from then on refuses every commit that would refer to it; then
 * the delete of its shard on every pod of its vault (idempotent) and the purge of its entries from every stash
 * server. Only files the fence answered are deleted, so a stash entry of a live file (a pod's unflushed shard)
 * is never purged, and a file a commit is about to reference is either referenced first (and not fenced) or
 * fenced first (and the commit is refused): the Raft log orders the two. The grace period only keeps the
 * collector from failing writes in progress. docs/OPERATIONS.md, "Orphan collection", has the argument.
 *
 * <p><b>Ages.</b> A shard's age is its file's modification time measured by its pod's own clock (no two
 * clocks compared); a stash entry's is its {@code writtenAtMillis} against this coordinator's clock. A write
 * in progress keeps touching its shards, so its newest one is young.
 *
 * <p><b>Where it runs.</b> Only the coordinator whose catalog peer leads collects (the fence makes two
 * collectors safe, but they would do the work twice). A failure (a pod down, a catalog timeout) leaves the rest
 * for a later pass: a fenced file whose deletes failed is found again, COLLECTED, and finished.
 *
 * <table>
 *   <caption>Limits (settings {@code collect.*})</caption>
 *   <tr><th>what</th><th>setting</th><th>default</th></tr>
 *   <tr><td>grace period</td><td>{@code collect.grace}</td><td>6 h</td></tr>
 *   <tr><td>pause between passes</td><td>{@code collect.interval}</td><td>1 h</td></tr>
 *   <tr><td>files collected per second</td><td>{@code collect.rate.filesPerSecond}</td><td>100</td></tr>
 * </table>
 *
 * <p>Thread-safe: one pass at a time, on its own thread; {@link #close()} stops the passes.
 */
public final class OrphanCollector implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OrphanCollector.class);
    private static final int PAGE = 1000;

    /** What the collector did, for the admin MXBean. */
    public record Status(boolean collectingHere, long orphansFound, long orphansWaiting, long filesCollected,
                         long shardsDeleted, long stashEntriesPurged, long stashBytesPurged, long failures,
                         long lastPassEpochMillis) {
    }

    /** One pass's outcome. */
    public record Pass(int orphansFound, int orphansWaiting, int filesCollected) {
    }

    /** An unreferenced file seen in the listings: its catalog state and its youngest copy's age. */
    private static final class Orphan {
        final FileState state;
        long youngestMillis = Long.MAX_VALUE;
        final List<StashEntryInfo> stashEntries = new ArrayList<>();

        Orphan(FileState state) {
            this.state = state;
        }
    }

    private final CollectConfig config;
    private final Catalog catalog;
    private final BooleanSupplier leads;
    private final VaultDirectory vaults;
    private final PodClient pods;
    private final StashClient stash;
    private final List<InetSocketAddress> stashServers;
    private final CollectMetrics metrics;
    private final Clock clock;
    private final Duration callTimeout;
    private final RateLimiter rate;
    private PeriodicPass<Pass> passes;

    private OrphanCollector(CollectConfig config, Catalog catalog, BooleanSupplier leads, VaultDirectory vaults,
                            PodClient pods, StashClient stash, List<InetSocketAddress> stashServers,
                            CollectMetrics metrics, Clock clock, Duration callTimeout) {
        this.config = Objects.requireNonNull(config, "config");
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.leads = Objects.requireNonNull(leads, "leads");
        this.vaults = vaults;
        this.pods = Objects.requireNonNull(pods, "pods");
        this.stash = Objects.requireNonNull(stash, "stash");
        this.stashServers = List.copyOf(stashServers);
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.callTimeout = Objects.requireNonNull(callTimeout, "callTimeout");
        this.rate = new RateLimiter(config.filesPerSecond(), System::nanoTime);
    }

    /**
     * Starts the passes (the first after one {@code collect.interval}).
     *
     * @param leads whether this coordinator's catalog peer leads now (only then does it collect)
     * @param vaults the vaults whose pods are listed, as the map has them at each pass
     * @param pods a pod client for the listings and deletes (not owned)
     * @param stash a stash client for the listings and purges (not owned)
     * @param callTimeout the pods' and catalog's call timeout: a call not answered in twice that has failed
     */
    public static OrphanCollector start(CollectConfig config, Catalog catalog, BooleanSupplier leads,
                                        VaultDirectory vaults, PodClient pods, StashClient stash, List<InetSocketAddress> stashServers,
                                        CollectMetrics metrics, Duration callTimeout) {
        OrphanCollector c = new OrphanCollector(config, catalog, leads, vaults, pods, stash, stashServers, metrics,
                Clock.systemUTC(), callTimeout);
        c.passes = PeriodicPass.start("orphan-collector", "orphan collection pass", config.interval(),
                c.metrics.failures, c::pass);
        return c;
    }

    /** Whether this coordinator collects now (enabled, and its catalog peer leads). */
    private boolean collectingHere() {
        return config.enabled() && leads.getAsBoolean();
    }

    public Status status() {
        return new Status(collectingHere(), metrics.orphansFound.get(), metrics.orphansWaiting.get(),
                (long) metrics.filesCollected.count(), (long) metrics.shardsDeleted.count(),
                (long) metrics.stashEntriesPurged.count(), (long) metrics.stashBytesPurged.count(),
                (long) metrics.failures.count(), metrics.lastPassMillis.get());
    }

    /** Runs one pass now, on the collector's thread, and waits for it (an operator's action, and tests'). */
    public Pass collectNow() throws IOException, InterruptedException {
        return passes.runNow();
    }

    private Pass pass() throws IOException, InterruptedException {
        if (!collectingHere()) {
            return new Pass(0, 0, 0);
        }
        try {
            Map<FileKey, Orphan> orphans = new LinkedHashMap<>();
            for (Vault v : vaults.all()) {
                listPods(v, orphans);
                listStash(v, orphans);
            }
            List<FileKey> due = new ArrayList<>();
            int waiting = 0;
            for (Map.Entry<FileKey, Orphan> e : orphans.entrySet()) {
                Orphan o = e.getValue();
                if (o.state == FileState.COLLECTED || o.youngestMillis >= config.grace().toMillis()) {
                    due.add(e.getKey());
                } else {
                    waiting++;
                }
            }
            metrics.orphansFound.set(orphans.size());
            metrics.orphansWaiting.set(waiting);
            int collected = 0;
            for (int from = 0; from < due.size() && collectingHere(); from += PAGE) {
                List<FileKey> fenced = await(catalog.collectFiles(due.subList(from, Math.min(due.size(), from + PAGE))),
                        "fence");
                for (FileKey f : fenced) {
                    rate.acquire(1);
                    if (delete(f, orphans.get(f))) {
                        collected++;
                    }
                }
            }
            metrics.lastPassMillis.set(clock.millis());
            if (!orphans.isEmpty()) {
                LOG.info("orphan collection pass: {} unreferenced files found, {} within the grace period, {} collected",
                        orphans.size(), waiting, collected);
            }
            return new Pass(orphans.size(), waiting, collected);
        } catch (IOException e) {
            metrics.failures.increment();
            throw e;
        }
    }

    /** Pages through every pod of the vault, keeping the files the catalog does not call LIVE or RELEASED. */
    private void listPods(Vault v, Map<FileKey, Orphan> orphans) throws InterruptedException {
        for (int i = 0; i < v.pods().size(); i++) {
            InetSocketAddress pod = v.pod(i);
            Optional<ShardId> after = Optional.empty();
            try {
                do {
                    PodAgedPage page = await(pods.listAged(pod, after, PAGE), "list pod " + pod);
                    Map<FileKey, Long> ages = new LinkedHashMap<>();
                    for (AgedShard s : page.shards()) {
                        if (s.id().vaultId() == v.vaultId()) {
                            ages.merge(new FileKey(s.id().vaultId(), s.id().fileId()), s.ageMillis(), Math::min);
                        }
                    }
                    observe(ages, Map.of(), orphans);
                    after = page.next();
                } while (after.isPresent());
            } catch (IOException e) {
                // Its shards stay until a pass that can list it: no file is collected on what was not seen.
                metrics.failures.increment();
                LOG.warn("orphan collection: cannot list pod {} of vault {}: {}", i, v.vaultId(), e.toString());
            }
        }
    }

    /** Pages through every slot of the vault on every stash server, as {@link #listPods} does. */
    private void listStash(Vault v, Map<FileKey, Orphan> orphans) throws InterruptedException {
        for (InetSocketAddress server : stashServers) {
            for (int i = 0; i < v.pods().size(); i++) {
                Optional<ShardId> after = Optional.empty();
                try {
                    do {
                        StashPage page = await(stash.list(server, v.vaultId(), i, after, PAGE), "list stash " + server);
                        Map<FileKey, Long> ages = new LinkedHashMap<>();
                        Map<FileKey, List<StashEntryInfo>> entries = new HashMap<>();
                        long now = clock.millis();
                        for (StashEntryInfo e : page.entries()) {
                            FileKey f = new FileKey(e.id().vaultId(), e.id().fileId());
                            ages.merge(f, Math.max(0, now - e.writtenAtMillis()), Math::min);
                            entries.computeIfAbsent(f, k -> new ArrayList<>()).add(e);
                        }
                        observe(ages, entries, orphans);
                        after = page.next();
                    } while (after.isPresent());
                } catch (IOException e) {
                    metrics.failures.increment();
                    LOG.warn("orphan collection: cannot list stash {} slot {}:{}: {}", server, v.vaultId(), i,
                            e.toString());
                }
            }
        }
    }

    /** Adds the page's files that are neither LIVE nor RELEASED to {@code orphans}, with their youngest age. */
    private void observe(Map<FileKey, Long> ages, Map<FileKey, List<StashEntryInfo>> entries,
                         Map<FileKey, Orphan> orphans) throws IOException, InterruptedException {
        List<FileKey> unknown = new ArrayList<>();
        for (FileKey f : ages.keySet()) {
            if (!orphans.containsKey(f)) {
                unknown.add(f);
            }
        }
        if (!unknown.isEmpty()) {
            List<FileState> states = await(catalog.fileStates(unknown), "file states");
            for (int j = 0; j < unknown.size(); j++) {
                FileState s = states.get(j);
                if (s == FileState.ABSENT || s == FileState.COLLECTED) {
                    orphans.put(unknown.get(j), new Orphan(s));
                }
            }
        }
        for (Map.Entry<FileKey, Long> a : ages.entrySet()) {
            Orphan o = orphans.get(a.getKey());
            if (o != null) {
                o.youngestMillis = Math.min(o.youngestMillis, a.getValue());
                o.stashEntries.addAll(entries.getOrDefault(a.getKey(), List.of()));
            }
        }
    }

    /**
     * Deletes a fenced file's shard on every pod of its vault and its entries from every stash server; whether
     * all of it went (otherwise a later pass finds the rest, COLLECTED, and finishes).
     */
    private boolean delete(FileKey f, Orphan seen) throws InterruptedException {
        Vault v = vaults.vault(f.vaultId()).orElseThrow();
        List<ShardId> ids = new ArrayList<>();
        for (int i = 0; i < v.pods().size(); i++) {
            ids.add(new ShardId(f.vaultId(), f.fileId(), i));
        }
        List<CompletableFuture<Boolean>> deletes = new ArrayList<>();
        for (ShardId id : ids) {
            deletes.add(pods.delete(v.pod(id.shardIndex()), id));
        }
        boolean done = true;
        for (int i = 0; i < deletes.size(); i++) {
            try {
                if (await(deletes.get(i), "delete")) {
                    metrics.shardsDeleted.increment();
                }
            } catch (IOException e) {
                done = false;
                LOG.warn("orphan collection: delete of {} on pod {} failed; a later pass retries: {}", ids.get(i), i,
                        e.toString());
            }
        }
        for (InetSocketAddress server : stashServers) {
            try {
                await(stash.purge(server, ids), "purge");
            } catch (IOException e) {
                done = false;
                LOG.warn("orphan collection: purge of file {}/{} on stash {} failed; a later pass retries: {}",
                        f.vaultId(), f.fileId(), server, e.toString());
            }
        }
        if (!done) {
            metrics.failures.increment();
            return false;
        }
        metrics.stashEntriesPurged.increment(seen.stashEntries.size());
        metrics.stashBytesPurged.increment(seen.stashEntries.stream().mapToLong(StashEntryInfo::length).sum());
        metrics.filesCollected.increment();
        LOG.info("collected orphan file {}/{} (newest copy {} s old)", f.vaultId(), f.fileId(),
                seen.youngestMillis == Long.MAX_VALUE ? -1 : seen.youngestMillis / 1000);
        return true;
    }

    private <T> T await(CompletableFuture<T> f, String what) throws IOException, InterruptedException {
        return Bounded.await(f, callTimeout.multipliedBy(2), what);
    }

    @Override
    public void close() {
        passes.close();
    }
}
