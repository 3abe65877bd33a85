package io.shardvault.it.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.Settings;
import io.shardvault.common.testing.FreePorts;
import io.shardvault.coordinator.Coordinator;
import io.shardvault.coordinator.catalog.VaultInfo;
import io.shardvault.coordinator.testing.MiniCluster;
import io.shardvault.it.s3.S3Cluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Issue #22 item 2, bootstrap from the map: {@code shardvault init --map FILE} registers the cluster map in the
 * catalog through a coordinator's JMX, and a coordinator whose settings name no map waits for it, then serves S3
 * from the catalog's; the same map again changes nothing; a map that disagrees is refused, and so is the start of
 * a coordinator whose settings disagree with the catalog's. Real Ratis, pods, stash servers and S3 SDK client.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ClusterMapInitIT {
    private static final String USER = "operator";
    private static final String PASSWORD = "jmx-secret-" + 22;
    /** The settings that spell the map, beside catalog.peers and coordinator.vault.id (which every coordinator has). */
    private static final List<String> MAP_ONLY = List.of("coordinator.vault.layout", "coordinator.vault.chunkBytes",
            "coordinator.vault.pods", "coordinator.stash.servers");

    @TempDir
    Path dir;

    @Test
    void initRegistersTheMapOnceAndACoordinatorWithoutMapSettingsServesS3FromIt() throws Exception {
        try (MiniCluster nodes = MiniCluster.start(dir.resolve("nodes"), MiniCluster.Options.defaults())) {
            Map<String, Object> full = S3Cluster.coordinatorSettings(nodes, dir.resolve("catalog"), 0);
            Path mapFile = writeMap(full, "cluster-map.conf");
            int jmxPort = FreePorts.loopback();
            Map<String, Object> s = new HashMap<>(full);
            MAP_ONLY.forEach(s::remove);
            s.put("coordinator.accessKey", S3Cluster.ACCESS_KEY);
            s.put("coordinator.secretKey", S3Cluster.SECRET_KEY);
            s.put("coordinator.startupTimeout", "90s");
            s.put("jmx.remote.enabled", true);
            s.put("jmx.remote.bind", "127.0.0.1:" + jmxPort);
            s.put("jmx.remote.user", USER);
            s.put("jmx.remote.password", PASSWORD);
            CompletableFuture<Coordinator> starting = CompletableFuture.supplyAsync(() -> {
                try {
                    return Coordinator.start(Settings.of(s), new SimpleMeterRegistry());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            Coordinator coordinator = null;
            try {
                // The coordinator serves JMX once its catalog answers, and waits there for the map.
                AdminCliRun init = awaitReachable(jmxPort, "init", "--map", mapFile.toString());
                assertThat(init.exit()).as(init.err()).isZero();
                assertThat(init.out()).startsWith("registered the cluster map in the catalog")
                        .contains("added vault 1 (16+4", "added 2 stash servers", "catalog peers as in the map: [c1=");
                coordinator = starting.get(90, TimeUnit.SECONDS);

                try (S3Client s3 = S3Cluster.syncClient(URI.create("http://127.0.0.1:"
                        + coordinator.s3Address().getPort()), S3Cluster.ACCESS_KEY, S3Cluster.SECRET_KEY, Duration.ofSeconds(60))) {
                    s3.createBucket(b -> b.bucket("mapped"));
                    s3.putObject(b -> b.bucket("mapped").key("k"), RequestBody.fromString("from the catalog's map"));
                    assertThat(s3.getObjectAsBytes(b -> b.bucket("mapped").key("k")).asUtf8String())
                            .isEqualTo("from the catalog's map");
                }

                AdminCliRun again = cli(jmxPort, "init", "--map", mapFile.toString());
                assertThat(again.exit()).as(again.err()).isZero();
                assertThat(again.out()).startsWith("the catalog holds this cluster map already: nothing changed");

                List<VaultInfo> before = coordinator.catalog().listVaults().get(30, TimeUnit.SECONDS);
                Map<String, Object> reordered = new HashMap<>(full);
                reordered.put("coordinator.vault.pods", swapFirstTwo((String) full.get("coordinator.vault.pods")));
                AdminCliRun refused = cli(jmxPort, "init", "--map", writeMap(reordered, "reordered.conf").toString());
                assertThat(refused.exit()).isEqualTo(1);
                assertThat(refused.err()).contains("the cluster map disagrees with the catalog's, nothing changed",
                        "pod 0 of vault 1", "which is pod 1 there (pods reordered?)");
                assertThat(coordinator.catalog().listVaults().get(30, TimeUnit.SECONDS)).isEqualTo(before);

                Map<String, Object> morePeers = new HashMap<>(full);
                morePeers.put("catalog.peers", full.get("catalog.peers") + ",c2=127.0.0.1:1");
                AdminCliRun peers = cli(jmxPort, "init", "--map", writeMap(morePeers, "peers.conf").toString());
                assertThat(peers.exit()).as(peers.err()).isZero();
                assertThat(peers.out()).contains("nothing changed", "catalog peers DIFFER", "c2=127.0.0.1:1",
                        "admin catalog add-peer/remove-peer");
            } finally {
                Coordinator started = coordinator != null ? coordinator : starting.handle((c, e) -> c).get(120,
                        TimeUnit.SECONDS);
                if (started != null) {
                    started.close();
                }
            }
        }
    }

    @Test
    void aCoordinatorWhoseMapSettingsDisagreeWithTheCatalogRefusesToStart() throws Exception {
        try (MiniCluster nodes = MiniCluster.start(dir.resolve("nodes"), MiniCluster.Options.defaults())) {
            Map<String, Object> s = S3Cluster.coordinatorSettings(nodes, dir.resolve("catalog"), 0);
            // The first start registers the settings' map (as bin/shardvault dev does).
            Coordinator.start(Settings.of(s), new SimpleMeterRegistry()).close();

            Map<String, Object> reordered = new HashMap<>(s);
            reordered.put("coordinator.vault.pods", swapFirstTwo((String) s.get("coordinator.vault.pods")));
            assertThatThrownBy(() -> Coordinator.start(Settings.of(reordered), new SimpleMeterRegistry()).close())
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("is not the catalog's, which every service follows")
                    .hasMessageContaining("which is pod 1 there (pods reordered?)");

            Map<String, Object> fewerStashes = new HashMap<>(s);
            fewerStashes.put("coordinator.stash.servers", "none");
            assertThatThrownBy(() -> Coordinator.start(Settings.of(fewerStashes), new SimpleMeterRegistry()).close())
                    .isInstanceOf(ConfigException.class).hasMessageContaining("the catalog's stash servers are [stash-0=");

            // Without map settings, the catalog's map is the coordinator's.
            Map<String, Object> none = new HashMap<>(s);
            MAP_ONLY.forEach(none::remove);
            try (Coordinator c = Coordinator.start(Settings.of(none), new SimpleMeterRegistry())) {
                assertThat(c.catalog().listVaults().get(30, TimeUnit.SECONDS)).singleElement()
                        .satisfies(v -> assertThat(v.pods()).hasSize(nodes.podCount()));
            }
        }
    }

    /** The map keys of {@code settings} as a HOCON file, as an operator writes cluster-map.conf. */
    private Path writeMap(Map<String, Object> settings, String name) throws IOException {
        StringBuilder text = new StringBuilder("# written by ClusterMapInitIT\n");
        for (String key : List.of("coordinator.vault.id", "coordinator.vault.layout", "coordinator.vault.chunkBytes",
                "coordinator.vault.pods", "coordinator.stash.servers", "catalog.peers")) {
            text.append(key).append(" = \"").append(settings.get(key)).append("\"\n");
        }
        Path f = dir.resolve(name);
        Files.writeString(f, text);
        return f;
    }

    private static String swapFirstTwo(String pods) {
        List<String> list = new ArrayList<>(List.of(pods.split(",")));
        String first = list.get(0);
        list.set(0, list.get(1));
        list.set(1, first);
        return String.join(",", list);
    }

    /** Runs the CLI until the coordinator's JMX answers (exit code 3: unreachable), for at most 90 s. */
    private AdminCliRun awaitReachable(int jmxPort, String... args) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        AdminCliRun run = cli(jmxPort, args);
        while (run.exit() == 3 && System.nanoTime() < deadline) {
            Thread.sleep(200);
            run = cli(jmxPort, args);
        }
        return run;
    }

    private AdminCliRun cli(int jmxPort, String... args) throws IOException {
        Path passwords = dir.resolve("cli.password");
        Files.writeString(passwords, USER + " " + PASSWORD + "\n");
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--jmx", "127.0.0.1:" + jmxPort, "--password-file", passwords.toString(), "--timeout", "5"));
        return AdminCliRun.execute(all.toArray(String[]::new));
    }
}
