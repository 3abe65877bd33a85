package io.shardvault.coordinator.catalog.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.shardvault.coordinator.catalog.CatalogConfig;
import io.shardvault.coordinator.catalog.CatalogServer;
import java.io.IOException;

/** The Ratis-backed catalog peer. */
public final class RatisCatalogServer {
    private RatisCatalogServer() {
    }

    public static CatalogServer start(CatalogConfig config, MeterRegistry registry) throws IOException {
        throw new IOException("not yet implemented: " + config.peerId() + " " + registry);
    }
}
