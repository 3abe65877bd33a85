package io.shardvault.coordinator.catalog;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.shardvault.common.config.Settings;
import io.shardvault.coordinator.testing.ClusterKeyFile;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Settings for catalog peers on loopback with small Ratis timeouts, for tests. */
final class CatalogTestPeers {
    private CatalogTestPeers() {
    }

    static String peersSpec(List<Integer> ports) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < ports.size(); i++) {
            sb.append(i == 0 ? "" : ",").append("p").append(i + 1).append("=127.0.0.1:").append(ports.get(i));
        }
        return sb.toString();
    }

    static Map<String, Object> settings(String peerId, String peers, Path dataDir, int snapshotEvery) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(CatalogConfigKeys.PEER_ID.name(), peerId);
        m.put(CatalogConfigKeys.PEERS.name(), peers);
        m.put(CatalogConfigKeys.DATA_DIR.name(), dataDir.toString());
        m.put(CatalogConfigKeys.SECRETS_KEY_FILE.name(), ClusterKeyFile.in(dataDir.toAbsolutePath().getParent()).toString());
        m.put(CatalogConfigKeys.SNAPSHOT_EVERY.name(), snapshotEvery);
        m.put(CatalogConfigKeys.ELECTION_TIMEOUT_MIN.name(), "300ms");
        m.put(CatalogConfigKeys.ELECTION_TIMEOUT_MAX.name(), "600ms");
        m.put(CatalogConfigKeys.REQUEST_TIMEOUT.name(), "20s");
        return m;
    }

    static CatalogConfig config(String peerId, String peers, Path dataDir, int snapshotEvery) {
        return CatalogConfig.from(Settings.of(settings(peerId, peers, dataDir, snapshotEvery)));
    }

    /** How many catalog calls took {@code path} (local, remote, fallback) in {@code registry}. */
    static double submissions(MeterRegistry registry, String path) {
        Counter c = registry.find("shardvault.catalog.submissions").tag("path", path).counter();
        return c == null ? 0 : c.count();
    }
}
