package io.shardvault.coordinator.testing;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.config.Settings;
import io.shardvault.common.testing.FreePorts;
import io.shardvault.coordinator.catalog.CatalogConfig;
import io.shardvault.coordinator.catalog.CatalogServer;
import io.shardvault.coordinator.catalog.internal.RatisCatalogServer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/** A catalog of one Ratis peer on loopback, for tests that need a real catalog beside a {@link MiniCluster}. */
public final class SinglePeerCatalog {
    private SinglePeerCatalog() {
    }

    /** Starts the peer with its data in {@code dataDir}; short election timeouts, so it leads within a second. */
    public static CatalogServer start(Path dataDir) throws IOException {
        return start(dataDir, new SimpleMeterRegistry());
    }

    /** As {@link #start(Path)}, metering the catalog (its calls, {@code shardvault.catalog.*}) into {@code registry}. */
    public static CatalogServer start(Path dataDir, MeterRegistry registry) throws IOException {
        int port = FreePorts.loopback();
        return RatisCatalogServer.start(CatalogConfig.from(Settings.of(Map.of(
                "catalog.peerId", "c1", "catalog.peers", "c1=127.0.0.1:" + port,
                "catalog.dataDir", dataDir.toString(),
                "catalog.secrets.keyFile", ClusterKeyFile.in(dataDir.toAbsolutePath().getParent()).toString(),
                "catalog.election.timeoutMin", "300ms", "catalog.election.timeoutMax", "600ms"))),
                registry);
    }
}
