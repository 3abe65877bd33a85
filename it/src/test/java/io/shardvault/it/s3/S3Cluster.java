package io.shardvault.it.s3;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.config.Settings;
import io.shardvault.coordinator.Coordinator;
import io.shardvault.coordinator.testing.MiniCluster;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * A real cluster on 127.0.0.1 in this JVM: a {@link MiniCluster} (one vault of 20 pods, 16+4, and 2 stash
 * servers) and a real {@link Coordinator} over it (a 1-peer catalog, the data paths, the S3 endpoint on an
 * ephemeral port), all under one directory, plus AWS SDK v2 clients pointed at it (path-style, us-east-1,
 * the SDK's default checksum behaviour).
 *
 * <p>Start one per test class; {@link #close()} stops the coordinator, then the pods and stash servers,
 * whatever state the test left them in. Not thread-safe: start and close it from the test thread (the clients
 * it creates are thread-safe and closed by the caller).
 */
public final class S3Cluster implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(S3Cluster.class);
    public static final String ACCESS_KEY = "AKIDSHARDVAULTIT0001";
    public static final String SECRET_KEY = "it/secret/key+0123456789abcdefghijklmn";

    private final MiniCluster cluster;
    private final Coordinator coordinator;
    private final SimpleMeterRegistry registry;

    private S3Cluster(MiniCluster cluster, Coordinator coordinator, SimpleMeterRegistry registry) {
        this.cluster = cluster;
        this.coordinator = coordinator;
        this.registry = registry;
    }

    /**
     * Starts the pods and stash servers, then the coordinator, under {@code dir}; without SOSAPI's
     * virtual objects, so that a bucket's listings hold exactly what the test wrote.
     */
    public static S3Cluster start(Path dir) throws IOException {
        return start(dir, Map.of("s3.sosapi.enabled", false));
    }

    /** As {@link #start(Path)}, with SOSAPI on and these coordinator settings added. */
    public static S3Cluster start(Path dir, Map<String, Object> overrides) throws IOException {
        return start(dir, ACCESS_KEY, SECRET_KEY, 0, overrides);
    }

    /** As {@link #start(Path)}, accepting the given bootstrap access key. */
    public static S3Cluster start(Path dir, String accessKey, String secretKey) throws IOException {
        return start(dir, accessKey, secretKey, 0);
    }

    /** As {@link #start(Path, String, String)}, with S3 on 127.0.0.1:{@code s3Port} (0: ephemeral). */
    public static S3Cluster start(Path dir, String accessKey, String secretKey, int s3Port) throws IOException {
        return start(dir, accessKey, secretKey, s3Port, Map.of());
    }

    private static S3Cluster start(Path dir, String accessKey, String secretKey, int s3Port,
                                   Map<String, Object> overrides) throws IOException {
        long began = System.nanoTime();
        MiniCluster cluster = MiniCluster.start(dir.resolve("nodes"), MiniCluster.Options.defaults());
        try {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            Map<String, Object> settings = coordinatorSettings(cluster, dir.resolve("catalog"), s3Port);
            settings.put("coordinator.accessKey", accessKey);
            settings.put("coordinator.secretKey", secretKey);
            settings.putAll(overrides);
            Coordinator coordinator = Coordinator.start(Settings.of(settings), registry);
            LOG.info("S3 cluster up on {} in {} ms", coordinator.s3Address(),
                    Duration.ofNanos(System.nanoTime() - began).toMillis());
            return new S3Cluster(cluster, coordinator, registry);
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /**
     * The settings a coordinator needs to serve {@code cluster}'s vault: its pods in shard order, its stash
     * servers, a 1-peer catalog on a free port under {@code catalogDir}, S3 on 127.0.0.1:{@code s3Port}.
     * Mutable, so that callers add keys or write it out as a config file.
     */
    public static Map<String, Object> coordinatorSettings(MiniCluster cluster, Path catalogDir, int s3Port)
            throws IOException {
        Map<String, Object> s = new HashMap<>();
        s.put("coordinator.vault.id", MiniCluster.VAULT_ID);
        s.put("coordinator.vault.layout", cluster.vault().layout().k() + "+" + cluster.vault().layout().m());
        s.put("coordinator.vault.chunkBytes", String.valueOf(cluster.vault().layout().chunkBytes()));
        s.put("coordinator.vault.pods", IntStream.range(0, cluster.podCount())
                .mapToObj(i -> hostPort(cluster.podAddress(i))).collect(Collectors.joining(",")));
        s.put("coordinator.stash.servers", join(cluster.stashAddresses()));
        s.put("coordinator.reaper.interval", "500ms");
        s.put("catalog.peerId", "c1");
        s.put("catalog.peers", "c1=127.0.0.1:" + freePort());
        s.put("catalog.dataDir", catalogDir.toString());
        s.put("s3.bindHost", "127.0.0.1");
        s.put("s3.port", s3Port);
        return s;
    }

    private static String join(List<InetSocketAddress> addresses) {
        return addresses.isEmpty() ? "none"
                : addresses.stream().map(S3Cluster::hostPort).collect(Collectors.joining(","));
    }

    private static String hostPort(InetSocketAddress a) {
        return "127.0.0.1:" + a.getPort();
    }

    /** A port free a moment ago: the catalog's Ratis server wants a fixed port in its peer list. */
    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** The coordinator's catalog (admin operations: access keys, bucket quotas). */
    public io.shardvault.coordinator.catalog.Catalog catalog() {
        return coordinator.catalog();
    }

    public MiniCluster nodes() {
        return cluster;
    }

    public SimpleMeterRegistry registry() {
        return registry;
    }

    public int port() {
        return coordinator.s3Address().getPort();
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port());
    }

    public static StaticCredentialsProvider credentials(String key, String secret) {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(key, secret));
    }

    /** The sync client (URLConnection) with the SDK's defaults, path-style. */
    public S3Client syncClient() {
        return syncClient(ACCESS_KEY, SECRET_KEY);
    }

    public S3Client syncClient(String key, String secret) {
        return syncClient(endpoint(), key, secret, Duration.ofSeconds(60));
    }

    /** A sync client for any endpoint (a child-JVM coordinator's, say). */
    public static S3Client syncClient(URI endpoint, String key, String secret, Duration apiCallTimeout) {
        return S3Client.builder().endpointOverride(endpoint).region(Region.US_EAST_1).forcePathStyle(true)
                .credentialsProvider(credentials(key, secret))
                .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofMinutes(2)).build())
                .overrideConfiguration(c -> c.apiCallTimeout(apiCallTimeout))
                .build();
    }

    /** The async client on Netty with the SDK's defaults, path-style. */
    public S3AsyncClient asyncClient() {
        return S3AsyncClient.builder().endpointOverride(endpoint()).region(Region.US_EAST_1).forcePathStyle(true)
                .credentialsProvider(credentials(ACCESS_KEY, SECRET_KEY))
                .httpClient(NettyNioAsyncHttpClient.builder().build())
                .overrideConfiguration(c -> c.apiCallTimeout(Duration.ofSeconds(60)))
                .build();
    }

    public S3Presigner presigner() {
        return S3Presigner.builder().endpointOverride(endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(credentials(ACCESS_KEY, SECRET_KEY))
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
                .build();
    }

    @Override
    public void close() {
        try {
            coordinator.close();
        } finally {
            cluster.close();
        }
    }
}
