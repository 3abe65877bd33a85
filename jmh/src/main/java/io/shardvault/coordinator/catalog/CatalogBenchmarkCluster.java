package io.shardvault.coordinator.catalog;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.config.Settings;
import io.shardvault.coordinator.catalog.internal.RatisCatalogServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.stream.Stream;

/** In-process catalog peers on loopback in a temporary directory, for benchmarks. */
final class CatalogBenchmarkCluster implements AutoCloseable {
    static final FileLayout LAYOUT = new FileLayout(16, 4, 65536);

    private final Path dir;
    private final List<CatalogServer> servers = new ArrayList<>();

    CatalogBenchmarkCluster(int peers) throws IOException {
        dir = Files.createTempDirectory("catalog-bench");
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < peers; i++) {
            try (ServerSocket s = new ServerSocket(0)) {
                ports.add(s.getLocalPort());
            }
        }
        StringBuilder spec = new StringBuilder();
        for (int i = 0; i < peers; i++) {
            spec.append(i == 0 ? "" : ",").append("b").append(i + 1).append("=127.0.0.1:").append(ports.get(i));
        }
        Path keys = SecretCipher.createKeyFile(dir.resolve("catalog-secrets.key"), "k1");
        for (int i = 0; i < peers; i++) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put(CatalogConfigKeys.PEER_ID.name(), "b" + (i + 1));
            m.put(CatalogConfigKeys.PEERS.name(), spec.toString());
            m.put(CatalogConfigKeys.DATA_DIR.name(), dir.resolve("b" + (i + 1)).toString());
            m.put(CatalogConfigKeys.MAX_OUTSTANDING.name(), 4096);
            m.put(CatalogConfigKeys.SECRETS_KEY_FILE.name(), keys.toString());
            servers.add(RatisCatalogServer.start(CatalogConfig.from(Settings.of(m)), new SimpleMeterRegistry()));
        }
    }

    Catalog catalog() {
        return servers.get(0).catalog();
    }

    /** Puts {@code count} keys {@code prefix + n} with at most {@code window} writes in flight. */
    static void load(Catalog catalog, String bucket, String prefix, int count, int window) throws Exception {
        Semaphore inFlight = new Semaphore(window);
        List<Throwable> failures = new ArrayList<>();
        for (int n = 0; n < count; n++) {
            inFlight.acquire();
            String key = String.format("%s%08d", prefix, n);
            CompletableFuture<PutResult> f = catalog.putObjectVersion(PutObjectVersion.of(bucket, key,
                    "d41d8cd98f00b204e9800998ecf8427e", ObjectMetadata.EMPTY,
                    new FileRef(1, n, 1 << 20, LAYOUT, List.of())));
            f.whenComplete((r, t) -> {
                if (t != null) {
                    synchronized (failures) {
                        failures.add(t);
                    }
                }
                inFlight.release();
            });
        }
        inFlight.acquire(window);
        if (!failures.isEmpty()) {
            throw new IllegalStateException(failures.size() + " loads failed", failures.get(0));
        }
    }

    @Override
    public void close() throws IOException {
        for (CatalogServer s : servers) {
            s.close();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
