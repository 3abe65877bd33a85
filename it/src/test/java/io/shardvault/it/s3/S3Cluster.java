package io.shardvault.it.s3;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.config.Settings;
import io.shardvault.common.testing.FreePorts;
import io.shardvault.coordinator.Coordinator;
import io.shardvault.coordinator.lifecycle.LifecycleExpirer;
import io.shardvault.coordinator.testing.MiniCluster;
import io.shardvault.coordinator.catalog.AccessKey;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.CatalogConfig;
import io.shardvault.coordinator.catalog.internal.RatisCatalogServer;
import io.shardvault.coordinator.testing.ClusterKeyFile;
import io.shardvault.s3.testing.S3Target;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpConfigurationOption;
import software.amazon.awssdk.utils.AttributeMap;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.function.Consumer;
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
 * ephemeral port, over HTTPS with s3-api's self-signed test certificate when asked), all under one directory,
 * plus AWS SDK v2 clients pointed at it (path-style, us-east-1, the SDK's default checksum behaviour).
 * Besides the bootstrap key (account {@code admin}) the catalog holds a key of another account and a disabled
 * key of the bootstrap key's account, so that the shared suites ({@link S3Target}) check ownership and disabled keys here too.
 *
 * <p>Start one per test class; {@link #close()} stops the coordinator, then the pods and stash servers,
 * whatever state the test left them in. Not thread-safe: start and close it from the test thread (the clients
 * it creates are thread-safe and closed by the caller).
 */
public final class S3Cluster implements S3Target {
    private static final Logger LOG = LoggerFactory.getLogger(S3Cluster.class);
    public static final String ACCESS_KEY = "AKIDSHARDVAULTIT0001";
    public static final String SECRET_KEY = "it/secret/key+0123456789abcdefghijklmn";
    /** The account of the coordinator's bootstrap key. */
    public static final String OWNER = "admin";

    private final MiniCluster cluster;
    private final Coordinator coordinator;
    private final SimpleMeterRegistry registry;
    private final String accessKey;
    private final String secretKey;
    private final boolean tls;
    private final String[] otherOwnerKey;
    private final String[] disabledKey;

    private S3Cluster(MiniCluster cluster, Coordinator coordinator, SimpleMeterRegistry registry, String accessKey,
                      String secretKey, boolean tls, String[] otherOwnerKey, String[] disabledKey) {
        this.cluster = cluster;
        this.coordinator = coordinator;
        this.registry = registry;
        this.accessKey = accessKey;
        this.secretKey = secretKey;
        this.tls = tls;
        this.otherOwnerKey = otherOwnerKey;
        this.disabledKey = disabledKey;
    }

    /**
     * Starts the pods and stash servers, then the coordinator, under {@code dir}, with the coordinator's
     * defaults (SOSAPI on: its virtual objects are listed only for Veeam's User-Agent, so the SDK's listings
     * hold exactly what the test wrote).
     */
    public static S3Cluster start(Path dir) throws IOException {
        return start(dir, ACCESS_KEY, SECRET_KEY, 0, false);
    }

    /** As {@link #start(Path)}, with these coordinator settings added. */
    public static S3Cluster start(Path dir, Map<String, Object> overrides) throws IOException {
        return start(dir, ACCESS_KEY, SECRET_KEY, 0, false, overrides, Clock.systemUTC());
    }

    /** As {@link #start(Path, Map)}, the lifecycle expirer counting ages against {@code lifecycleClock}. */
    public static S3Cluster start(Path dir, Map<String, Object> overrides, Clock lifecycleClock) throws IOException {
        return start(dir, ACCESS_KEY, SECRET_KEY, 0, false, overrides, lifecycleClock);
    }

    /** As {@link #start(Path)}, accepting the given bootstrap access key. */
    public static S3Cluster start(Path dir, String accessKey, String secretKey) throws IOException {
        return start(dir, accessKey, secretKey, 0);
    }

    /** As {@link #start(Path, String, String)}, with S3 on 127.0.0.1:{@code s3Port} (0: ephemeral). */
    public static S3Cluster start(Path dir, String accessKey, String secretKey, int s3Port) throws IOException {
        return start(dir, accessKey, secretKey, s3Port, false);
    }

    /**
     * As {@link #start(Path, String, String, int)}; with {@code tls} the endpoint serves HTTPS only, with s3-api's
     * test certificate and key (PEM, copied under {@code dir/tls}) given as {@code s3.tls.*} settings, as an
     * operator configures a coordinator.
     */
    public static S3Cluster start(Path dir, String accessKey, String secretKey, int s3Port, boolean tls)
            throws IOException {
        return start(dir, accessKey, secretKey, s3Port, tls, Map.of(), Clock.systemUTC());
    }

    private static S3Cluster start(Path dir, String accessKey, String secretKey, int s3Port, boolean tls,
                                   Map<String, Object> overrides, Clock lifecycleClock) throws IOException {
        long began = System.nanoTime();
        MiniCluster cluster = MiniCluster.start(dir.resolve("nodes"), MiniCluster.Options.defaults());
        try {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            Map<String, Object> settings = coordinatorSettings(cluster, dir.resolve("catalog"), s3Port);
            settings.put("coordinator.accessKey", accessKey);
            settings.put("coordinator.secretKey", secretKey);
            if (tls) {
                settings.put("s3.tls.enabled", "true");
                settings.put("s3.tls.certificate", copyResource("tls/test-cert.pem", dir.resolve("tls")).toString());
                settings.put("s3.tls.privateKey", copyResource("tls/test-key.pem", dir.resolve("tls")).toString());
            }
            settings.putAll(overrides);
            Coordinator coordinator = Coordinator.start(Settings.of(settings), registry, lifecycleClock);
            String[] other;
            String[] disabled;
            try (Catalog catalog = RatisCatalogServer.connect(CatalogConfig.from(Settings.of(settings)), new SimpleMeterRegistry())) {
                String otherAccount = catalog.createAccount("other-owner").get(60, TimeUnit.SECONDS).id();
                AccessKey o = catalog.createAccessKey(otherAccount, false).get(60, TimeUnit.SECONDS);
                AccessKey d = catalog.createAccessKey(OWNER, false).get(60, TimeUnit.SECONDS);
                catalog.disableAccessKey(d.accessKeyId()).get(60, TimeUnit.SECONDS);
                other = new String[] {o.accessKeyId(), o.secretKey()};
                disabled = new String[] {d.accessKeyId(), d.secretKey()};
            } catch (Exception e) {
                coordinator.close();
                throw e instanceof IOException io ? io : new IOException("could not create the test keys", e);
            }
            LOG.info("S3 cluster up on {} ({}) in {} ms", coordinator.s3Address(), tls ? "https" : "http",
                    Duration.ofNanos(System.nanoTime() - began).toMillis());
            return new S3Cluster(cluster, coordinator, registry, accessKey, secretKey, tls, other, disabled);
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** Copies a class-path resource (s3-api's test-jar holds the test certificate) into {@code dir}. */
    private static Path copyResource(String name, Path dir) throws IOException {
        Files.createDirectories(dir);
        Path target = dir.resolve(Path.of(name).getFileName().toString());
        try (InputStream in = S3Cluster.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("no resource " + name + " on the class path");
            }
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
        return target;
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
        s.put("catalog.peers", "c1=127.0.0.1:" + FreePorts.loopback());
        s.put("catalog.dataDir", catalogDir.toString());
        s.put("catalog.secrets.keyFile", ClusterKeyFile.in(catalogDir.toAbsolutePath().getParent()).toString());
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

    /** The coordinator's catalog (admin operations: access keys, bucket quotas). */
    public io.shardvault.coordinator.catalog.Catalog catalog() {
        return coordinator.catalog();
    }

    /** The coordinator's lifecycle expirer (a test runs it at the instant its clock says). */
    public LifecycleExpirer lifecycle() {
        return coordinator.lifecycle();
    }

    public MiniCluster nodes() {
        return cluster;
    }

    @Override
    public SimpleMeterRegistry registry() {
        return registry;
    }

    @Override
    public int port() {
        return coordinator.s3Address().getPort();
    }

    @Override
    public URI endpoint() {
        return URI.create((tls ? "https" : "http") + "://127.0.0.1:" + port());
    }

    @Override
    public String accessKey() {
        return accessKey;
    }

    @Override
    public String secretKey() {
        return secretKey;
    }

    @Override
    public String owner() {
        return OWNER;
    }

    @Override
    public Optional<String[]> otherOwnerKey() {
        return Optional.of(otherOwnerKey.clone());
    }

    @Override
    public Optional<String[]> disabledKey() {
        return Optional.of(disabledKey.clone());
    }

    public static StaticCredentialsProvider credentials(String key, String secret) {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(key, secret));
    }

    @Override
    public S3Client syncClient(String key, String secret) {
        return syncClient(endpoint(), key, secret, Duration.ofSeconds(60));
    }

    /**
     * A sync client for any endpoint (a child-JVM coordinator's, say); trusts any certificate over https. The
     * interceptors see each request as signed (a test collects the signatures sent, say).
     */
    public static S3Client syncClient(URI endpoint, String key, String secret, Duration apiCallTimeout,
                                      ExecutionInterceptor... interceptors) {
        return syncClient(endpoint, key, secret,
                c -> c.apiCallTimeout(apiCallTimeout).executionInterceptors(List.of(interceptors)));
    }

    /** The same with the SDK's settings of {@code override} (its retries off, say). */
    public static S3Client syncClient(URI endpoint, String key, String secret,
                                      Consumer<ClientOverrideConfiguration.Builder> override) {
        return S3Client.builder().endpointOverride(endpoint).region(Region.US_EAST_1).forcePathStyle(true)
                .credentialsProvider(credentials(key, secret))
                .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofMinutes(2))
                        .buildWithDefaults(httpOptions(endpoint)))
                .overrideConfiguration(override)
                .build();
    }

    /** The async client on Netty with the SDK's defaults, path-style. */
    @Override
    public S3AsyncClient asyncClient() {
        return S3AsyncClient.builder().endpointOverride(endpoint()).region(Region.US_EAST_1).forcePathStyle(true)
                .credentialsProvider(credentials(accessKey, secretKey))
                .httpClient(NettyNioAsyncHttpClient.builder().buildWithDefaults(httpOptions(endpoint())))
                .overrideConfiguration(c -> c.apiCallTimeout(Duration.ofSeconds(60)))
                .build();
    }

    @Override
    public S3Presigner presigner() {
        return presigner(endpoint(), accessKey, secretKey);
    }

    /** A path-style presigner for any endpoint and key (a wrong secret, say). */
    public static S3Presigner presigner(URI endpoint, String key, String secret) {
        return S3Presigner.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(credentials(key, secret))
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
                .build();
    }

    /** The test certificate is self-signed: clients of an https endpoint trust any certificate. */
    private static AttributeMap httpOptions(URI endpoint) {
        return AttributeMap.builder().put(SdkHttpConfigurationOption.TRUST_ALL_CERTIFICATES,
                "https".equals(endpoint.getScheme())).build();
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
