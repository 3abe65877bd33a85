package io.shardvault.coordinator.admin.internal;

import io.shardvault.coordinator.admin.SlotBacklogView;
import io.shardvault.coordinator.admin.StashMXBean;
import io.shardvault.coordinator.admin.StashServerView;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** The Stash MXBean. Thread-safe. */
public final class StashBean implements StashMXBean {
    private final ClusterProbe probe;

    public StashBean(ClusterProbe probe) {
        this.probe = probe;
    }

    @Override
    public StashServerView[] getServers() {
        return probe.stashServers().toArray(StashServerView[]::new);
    }

    @Override
    public SlotBacklogView[] getSlots() {
        return probe.slots().toArray(SlotBacklogView[]::new);
    }

    @Override
    public int retryPurgesNow(int vaultId) {
        if (vaultId != probe.vault().vaultId()) {
            throw new IllegalArgumentException("no vault " + vaultId + " (this coordinator serves vault "
                    + probe.vault().vaultId() + ")");
        }
        List<CompletableFuture<Boolean>> asks = new ArrayList<>();
        for (int i = 0; i < probe.vault().layout().n(); i++) {
            asks.add(probe.podClient().retryPurges(probe.vault().pod(i))
                    .orTimeout(ClusterProbe.PROBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .exceptionally(t -> false));
        }
        int acknowledged = 0;
        for (CompletableFuture<Boolean> a : asks) {
            if (a.join()) {
                acknowledged++;
            }
        }
        return acknowledged;
    }
}
