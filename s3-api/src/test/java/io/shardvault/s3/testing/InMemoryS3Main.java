package io.shardvault.s3.testing;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.s3.Credential;
import io.shardvault.s3.S3Server;
import io.shardvault.s3.S3ServerConfig;
import java.time.Clock;

/**
 * Runs the S3 endpoint over an {@link InMemoryObjectStore} for interop scripts (it/interop):
 * {@code InMemoryS3Main <port> <accessKey> <secretKey>}. Prints {@code LISTENING <port>} once bound
 * and serves until stdin closes or the process is killed. A test tool, not a product.
 */
public final class InMemoryS3Main {
    private InMemoryS3Main() {
    }

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        String key = args.length > 1 ? args[1] : S3ServerFixture.ACCESS_KEY;
        String secret = args.length > 2 ? args[2] : S3ServerFixture.SECRET_KEY;
        InMemoryObjectStore store = new InMemoryObjectStore(2L << 30, Clock.systemUTC());
        MapCredentialStore credentials = new MapCredentialStore().add(new Credential(key, secret, true, "interop"));
        try (S3Server server = S3Server.start(S3ServerConfig.defaults().withBind("127.0.0.1", port), store,
                credentials, new SimpleMeterRegistry())) {
            System.out.println("LISTENING " + server.localAddress().getPort());
            System.out.flush();
            while (System.in.read() >= 0) {
                // Serve until stdin closes.
            }
        }
    }
}
