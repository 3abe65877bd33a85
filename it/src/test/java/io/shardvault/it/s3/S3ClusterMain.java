package io.shardvault.it.s3;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs an {@link S3Cluster} (20 pods, 2 stash servers, a coordinator) for interop scripts (it/interop):
 * {@code S3ClusterMain <port> <accessKey> <secretKey> [dataDir]}. Prints {@code LISTENING <port>} once the S3
 * endpoint answers and serves until stdin closes or the process is killed. Data goes to a fresh temporary
 * directory unless one is given. A test tool, not a product (bin/shardvault dev is the product's way).
 */
public final class S3ClusterMain {
    private S3ClusterMain() {
    }

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        String key = args.length > 1 ? args[1] : S3Cluster.ACCESS_KEY;
        String secret = args.length > 2 ? args[2] : S3Cluster.SECRET_KEY;
        Path dir = args.length > 3 ? Files.createDirectories(Path.of(args[3]))
                : Files.createTempDirectory("shardvault-interop-");
        try (S3Cluster cluster = S3Cluster.start(dir, key, secret, port)) {
            System.out.println("LISTENING " + cluster.port());
            System.out.flush();
            while (System.in.read() >= 0) {
                // Serve until stdin closes.
            }
        }
    }
}
