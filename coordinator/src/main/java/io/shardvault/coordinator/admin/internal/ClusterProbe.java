package io.shardvault.coordinator.admin.internal;

import io.shardvault.common.ShardvaultException;
import io.shardvault.coordinator.admin.FailedTomeView;
import io.shardvault.coordinator.admin.PodView;
import io.shardvault.coordinator.admin.ScrubView;
import io.shardvault.coordinator.admin.SlotBacklogView;
import io.shardvault.coordinator.admin.StashServerView;
import io.shardvault.coordinator.admin.VaultView;
import io.shardvault.coordinator.catalog.PodState;
import io.shardvault.coordinator.catalog.PodStatus;
import io.shardvault.coordinator.data.Vault;
import io.shardvault.coordinator.store.CatalogPodStates;
import io.shardvault.pod.api.PodClient;
import io.shardvault.pod.api.PodStats;
import io.shardvault.stash.api.StashClient;
import io.shardvault.stash.api.StashEntryInfo;
import io.shardvault.stash.api.StashPage;
import io.shardvault.stash.api.StashPlacement;
import io.shardvault.stash.api.StashStats;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Asks the cluster's nodes how they are, for the console: STATS of every pod and stash server in
 * parallel, each bounded by a short timeout (a node that does not answer in time is unreachable),
 * and the stash's LIST pages per pod slot. Thread-safe; holds no state between calls.
 */
public final class ClusterProbe {
    /** Per node: a console call must come back in seconds even when half the cluster is gone. */
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);
    /** Entries counted per slot before giving up (the view then says "at least"). */
    static final int MAX_SLOT_ENTRIES = 200_000;
    private static final int PAGE = 5_000;

    /** The vault as the coordinator's map has it now (a decommission's end moves a pod). */
    private final Supplier<Vault> vault;
    private final int writeQuorum;
    private final List<InetSocketAddress> stashServers;
    private final PodClient pods;
    private final StashClient stash;
    private final CatalogPodStates podStates;

    public ClusterProbe(Supplier<Vault> vault, int writeQuorum, List<InetSocketAddress> stashServers, PodClient pods,
                        StashClient stash, CatalogPodStates podStates) {
        this.vault = vault;
        this.writeQuorum = writeQuorum;
        this.stashServers = List.copyOf(stashServers);
        this.pods = pods;
        this.stash = stash;
        this.podStates = podStates;
    }

    public Vault vault() {
        return vault.get();
    }

    PodClient podClient() {
        return pods;
    }

    CatalogPodStates podStates() {
        return podStates;
    }

    static String hostPort(InetSocketAddress a) {
        return a.getHostString() + ":" + a.getPort();
    }

    static String describe(Throwable t) {
        Throwable c = ShardvaultException.unwrap(t);
        if (c instanceof java.util.concurrent.TimeoutException) {
            return "no answer within " + PROBE_TIMEOUT.toMillis() + " ms";
        }
        return c.getMessage() == null ? c.getClass().getSimpleName() : c.getMessage();
    }

    /** Every pod of the vault, in shard order. */
    public List<PodView> pods() {
        List<CompletableFuture<PodView>> all = new ArrayList<>();
        for (int i = 0; i < vault().layout().n(); i++) {
            all.add(pod(i));
        }
        return all.stream().map(CompletableFuture::join).toList();
    }

    /** One pod: catalog state and STATS, never failing (an error makes it unreachable). */
    public CompletableFuture<PodView> pod(int shardIndex) {
        InetSocketAddress address = vault().pod(shardIndex);
        PodStatus status = podStates.status(vault().vaultId(), shardIndex);
        String since = status.since().equals(Instant.EPOCH) ? "" : status.since().toString();
        return pods.stats(address).orTimeout(PROBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .handle((PodStats s, Throwable failure) -> failure == null
                        ? new PodView(vault().vaultId(), shardIndex, hostPort(address), status.state().name(), since,
                                true, s.unflushedBytes(), s.purgeQueueDepth(), s.oldestPurgeAgeMillis(),
                                s.usableBytes(), s.failedTomes().stream().map(FailedTomeView::of)
                                        .toArray(FailedTomeView[]::new),
                                s.scrub().map(ScrubView::of).orElse(ScrubView.NONE), "")
                        : new PodView(vault().vaultId(), shardIndex, hostPort(address), status.state().name(), since,
                                false, -1, -1, -1, -1, new FailedTomeView[0], ScrubView.NONE, describe(failure)));
    }

    /** The vault's summary from the given pod views. */
    public VaultView vaultView(List<PodView> podViews) {
        int up = 0;
        int draining = 0;
        int down = 0;
        int unreachable = 0;
        int writable = 0;
        for (PodView p : podViews) {
            PodState s = PodState.valueOf(p.getState());
            switch (s) {
                case UP -> up++;
                case DRAINING -> draining++;
                case DOWN -> down++;
            }
            if (!p.isReachable()) {
                unreachable++;
            }
            if (s == PodState.UP && p.isReachable()) {
                writable++;
            }
        }
        return new VaultView(vault().vaultId(), vault().layout().k() + "+" + vault().layout().m(),
                vault().layout().chunkBytes(), podViews.size(), up, draining, down, unreachable, writeQuorum,
                writable >= writeQuorum);
    }

    /** Every stash server, in cluster-map order. */
    public List<StashServerView> stashServers() {
        List<CompletableFuture<StashServerView>> all = new ArrayList<>();
        for (int s = 0; s < stashServers.size(); s++) {
            String id = "stash-" + s;
            InetSocketAddress a = stashServers.get(s);
            all.add(stash.stats(a).orTimeout(PROBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .handle((StashStats st, Throwable failure) -> failure == null
                            ? new StashServerView(id, hostPort(a), true, st.entries(), st.bytes(), st.capacityBytes(),
                                    st.oldestEntryAgeMillis(), "")
                            : new StashServerView(id, hostPort(a), false, -1, -1, -1, -1, describe(failure))));
        }
        return all.stream().map(CompletableFuture::join).toList();
    }

    /** The stash's backlog for every pod slot of the vault (empty without a stash). */
    public List<SlotBacklogView> slots() {
        if (stashServers.isEmpty()) {
            return List.of();
        }
        StashPlacement placement = new StashPlacement(stashServers);
        List<CompletableFuture<SlotBacklogView>> all = new ArrayList<>();
        long now = System.currentTimeMillis();
        for (int i = 0; i < vault().layout().n(); i++) {
            InetSocketAddress server = placement.serverFor(vault().vaultId(), i);
            all.add(slot(server, i, now));
        }
        return all.stream().map(CompletableFuture::join).toList();
    }

    private CompletableFuture<SlotBacklogView> slot(InetSocketAddress server, int shardIndex, long now) {
        long[] acc = {0, 0, Long.MAX_VALUE};
        CompletableFuture<SlotBacklogView> result = new CompletableFuture<>();
        page(server, shardIndex, Optional.empty(), acc, now, result);
        return result;
    }

    private void page(InetSocketAddress server, int shardIndex, Optional<io.shardvault.common.ShardId> after,
                      long[] acc, long now, CompletableFuture<SlotBacklogView> result) {
        stash.list(server, vault().vaultId(), shardIndex, after, PAGE)
                .orTimeout(PROBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((StashPage p, Throwable failure) -> {
                    if (failure != null) {
                        result.complete(backlog(server, shardIndex, acc, now, false, describe(failure)));
                        return;
                    }
                    for (StashEntryInfo e : p.entries()) {
                        acc[0]++;
                        acc[1] += e.length();
                        acc[2] = Math.min(acc[2], e.writtenAtMillis());
                    }
                    if (p.next().isEmpty()) {
                        result.complete(backlog(server, shardIndex, acc, now, true, ""));
                    } else if (acc[0] >= MAX_SLOT_ENTRIES) {
                        result.complete(backlog(server, shardIndex, acc, now, false,
                                "counted the first " + acc[0] + " entries only"));
                    } else {
                        page(server, shardIndex, p.next(), acc, now, result);
                    }
                });
    }

    private SlotBacklogView backlog(InetSocketAddress server, int shardIndex, long[] acc, long now, boolean complete,
                                    String error) {
        long oldest = acc[0] == 0 ? 0 : Math.max(0, now - acc[2]);
        return new SlotBacklogView(vault().vaultId(), shardIndex, hostPort(server), acc[0], acc[1], oldest, complete,
                error);
    }
}
