package io.shardvault.coordinator.store;

import io.shardvault.common.DaemonThreads;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.PodInfo;
import io.shardvault.coordinator.catalog.VaultInfo;
import io.shardvault.coordinator.data.Vault;
import io.shardvault.coordinator.data.VaultDirectory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This coordinator's vault with the pod addresses the catalog records (its {@code PODS} rows), re-read
 * every {@code refresh} and at once by {@link #refresh()}: the one holder the data path, the repair and
 * rebuild workers, the collectors, the cluster probe and the readiness check ask for the vault, so a
 * decommission that ends (its DONE moves the pod in the catalog) switches all of them while the
 * coordinator runs. A write or read already under way keeps the vault it started with: the old pod
 * serves until it is retired. A failed read keeps the last map; the catalog's pods override the start
 * map only where it records one.
 *
 * <p>Thread-safe; owns one daemon thread, which does every read in turn (so a late answer never undoes
 * a newer one), stopped by {@link #close()}.
 */
public final class CatalogVaultMap implements VaultDirectory, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CatalogVaultMap.class);
    /** How long one read of the catalog's map may take. */
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

    private final Catalog catalog;
    private final ScheduledExecutorService reader;
    private final Consumer<Vault> onMove;
    private volatile Vault vault;

    /**
     * @param start the vault as this coordinator started with it (the catalog's addresses already taken:
     *              see {@link #withCatalogPods})
     * @param onMove told the new vault when a pod moved (the pod assignments follow it); runs on the
     *               reader thread, so it must not block
     */
    public CatalogVaultMap(Catalog catalog, Vault start, Duration refresh, Consumer<Vault> onMove) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.vault = Objects.requireNonNull(start, "start");
        this.onMove = Objects.requireNonNull(onMove, "onMove");
        this.reader = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("vault-map-refresh"));
        reader.scheduleWithFixedDelay(this::readQuietly, refresh.toMillis(), refresh.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /**
     * {@code vault} with each pod at the address {@code recorded} (the catalog's vaults) gives it, where
     * it records one.
     */
    public static Vault withCatalogPods(Vault vault, List<VaultInfo> recorded) {
        Vault out = vault;
        for (VaultInfo v : recorded) {
            if (v.vaultId() != vault.vaultId()) {
                continue;
            }
            for (PodInfo p : v.pods()) {
                if (p.shardIndex() < vault.layout().n()) {
                    InetSocketAddress at = out.pod(p.shardIndex());
                    if (!at.getHostString().equals(p.host()) || at.getPort() != p.port()) {
                        out = out.withPod(p.shardIndex(), new InetSocketAddress(p.host(), p.port()));
                    }
                }
            }
        }
        return out;
    }

    /** The vault as last read. */
    public Vault current() {
        return vault;
    }

    @Override
    public Vault vaultForWrite(long size) {
        return vault;
    }

    @Override
    public Optional<Vault> vault(int vaultId) {
        Vault v = vault;
        return v.vaultId() == vaultId ? Optional.of(v) : Optional.empty();
    }

    @Override
    public List<Vault> all() {
        return List.of(vault);
    }

    @Override
    public CompletableFuture<Void> refresh() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        try {
            reader.execute(() -> {
                try {
                    read();
                    done.complete(null);
                } catch (Exception e) {
                    done.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException closed) {
            done.completeExceptionally(closed);
        }
        return done;
    }

    private void readQuietly() {
        try {
            read();
        } catch (Exception e) {
            LOG.debug("vault map refresh failed; keeping the last map: {}", e.toString());
        }
    }

    private void read() throws Exception {
        Vault before = vault;
        Vault after = withCatalogPods(before, catalog.listVaults().get(READ_TIMEOUT.toMillis(),
                TimeUnit.MILLISECONDS));
        if (after.equals(before)) {
            return;
        }
        vault = after;
        for (int i = 0; i < after.layout().n(); i++) {
            if (!after.pod(i).equals(before.pod(i))) {
                LOG.info("pod {} of vault {} moved from {} to {} in the catalog's map: new reads and writes go to {}",
                        i, after.vaultId(), before.pod(i), after.pod(i), after.pod(i));
            }
        }
        onMove.accept(after);
    }

    @Override
    public void close() {
        reader.shutdownNow();
    }
}
