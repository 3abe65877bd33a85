package io.shardvault.coordinator.catalog;

import io.shardvault.coordinator.catalog.internal.RatisCatalogServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Runs one catalog peer in its own JVM, for tests that kill it with SIGKILL. Arguments: peer id,
 * peers spec, data dir, snapshot period, role file. Writes "leader" or "follower" to the role file
 * every 100 ms until killed.
 */
public final class CatalogPeerMain {
    private CatalogPeerMain() {
    }

    public static void main(String[] args) throws Exception {
        CatalogConfig config = CatalogTestPeers.config(args[0], args[1], Path.of(args[2]), Integer.parseInt(args[3]));
        Path roleFile = Path.of(args[4]);
        CatalogServer server = RatisCatalogServer.start(config, new SimpleMeterRegistry());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (Exception e) {
                e.printStackTrace();
            }
        }));
        Path tmp = roleFile.resolveSibling(roleFile.getFileName() + ".tmp");
        while (true) {
            Files.writeString(tmp, server.isLeader() ? "leader" : "follower", StandardCharsets.UTF_8);
            Files.move(tmp, roleFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            Thread.sleep(100);
        }
    }
}
