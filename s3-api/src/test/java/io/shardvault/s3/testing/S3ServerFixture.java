package io.shardvault.s3.testing;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.s3.Credential;
import io.shardvault.s3.S3Server;
import io.shardvault.s3.S3ServerConfig;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpConfigurationOption;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.utils.AttributeMap;

/**
 * An S3 server on 127.0.0.1 and an ephemeral port, over an {@link InMemoryObjectStore}, with one
 * enabled key ({@link #ACCESS_KEY}), one disabled key, and AWS SDK clients pointed at it.
 */
public final class S3ServerFixture implements S3Target {
    public static final String ACCESS_KEY = "AKIDSHARDVAULTTEST1";
    public static final String SECRET_KEY = "secret/key+for+tests/0123456789abcdefghij";
    public static final String OWNER = "owner-one";
    public static final String OTHER_ACCESS_KEY = "AKIDSHARDVAULTTEST2";
    public static final String OTHER_SECRET_KEY = "another/secret/0123456789abcdefghij";
    public static final String DISABLED_ACCESS_KEY = "AKIDSHARDVAULTOFF";

    private final S3Server server;
    private final InMemoryObjectStore store;
    private final SimpleMeterRegistry registry;
    private final boolean tls;
    private final Region region;

    private S3ServerFixture(S3Server server, InMemoryObjectStore store, SimpleMeterRegistry registry, boolean tls,
                            String region) {
        this.server = server;
        this.store = store;
        this.registry = registry;
        this.tls = tls;
        this.region = Region.of(region);
    }

    public static S3ServerFixture start() throws IOException {
        return start(false, UnaryOperator.identity());
    }

    public static S3ServerFixture start(boolean tls, UnaryOperator<S3ServerConfig> tweak) throws IOException {
        // SOSAPI's virtual objects on, as deployed: the SDK's listings (no Veeam User-Agent) hold exactly what
        // the tests wrote.
        S3ServerConfig config = S3ServerConfig.defaults().withBind("127.0.0.1", 0);
        if (tls) {
            config = config.withTls(resource("tls/test-cert.pem"), resource("tls/test-key.pem"));
        }
        config = tweak.apply(config);
        InMemoryObjectStore store = new InMemoryObjectStore(1L << 30, Clock.systemUTC());
        MapCredentialStore credentials = new MapCredentialStore()
                .add(new Credential(ACCESS_KEY, SECRET_KEY, true, OWNER))
                .add(new Credential(OTHER_ACCESS_KEY, OTHER_SECRET_KEY, true, "owner-two"))
                .add(new Credential(DISABLED_ACCESS_KEY, SECRET_KEY, false, OWNER));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        S3Server server = S3Server.start(config, store, credentials, registry);
        return new S3ServerFixture(server, store, registry, tls, config.region());
    }

    private static Path resource(String name) {
        try {
            return Paths.get(S3ServerFixture.class.getClassLoader().getResource(name).toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    public InMemoryObjectStore store() {
        return store;
    }

    @Override
    public SimpleMeterRegistry registry() {
        return registry;
    }

    @Override
    public int port() {
        return server.localAddress().getPort();
    }

    @Override
    public String accessKey() {
        return ACCESS_KEY;
    }

    @Override
    public String secretKey() {
        return SECRET_KEY;
    }

    @Override
    public String owner() {
        return OWNER;
    }

    @Override
    public Optional<String[]> otherOwnerKey() {
        return Optional.of(new String[] {OTHER_ACCESS_KEY, OTHER_SECRET_KEY});
    }

    @Override
    public Optional<String[]> disabledKey() {
        return Optional.of(new String[] {DISABLED_ACCESS_KEY, SECRET_KEY});
    }

    @Override
    public void assertNothingOpen() {
        if (store.openContents() != 0) {
            throw new AssertionError(store.openContents() + " object contents left open");
        }
    }

    @Override
    public URI endpoint() {
        return URI.create((tls ? "https" : "http") + "://127.0.0.1:" + port());
    }

    public static StaticCredentialsProvider credentials(String key, String secret) {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(key, secret));
    }

    /** The sync client with the SDK's defaults (checksums when supported), path-style. */
    @Override
    public S3Client syncClient() {
        return syncClient(ACCESS_KEY, SECRET_KEY);
    }

    @Override
    public S3Client syncClient(String key, String secret) {
        return S3Client.builder().endpointOverride(endpoint()).region(region).forcePathStyle(true)
                .credentialsProvider(credentials(key, secret))
                .httpClient(UrlConnectionHttpClient.builder().buildWithDefaults(httpOptions()))
                .overrideConfiguration(c -> c.apiCallTimeout(Duration.ofSeconds(60)))
                .build();
    }

    /** The async client on Netty with the SDK's defaults, path-style. */
    @Override
    public S3AsyncClient asyncClient() {
        return S3AsyncClient.builder().endpointOverride(endpoint()).region(region).forcePathStyle(true)
                .credentialsProvider(credentials(ACCESS_KEY, SECRET_KEY))
                .httpClient(NettyNioAsyncHttpClient.builder().buildWithDefaults(httpOptions()))
                .overrideConfiguration(c -> c.apiCallTimeout(Duration.ofSeconds(60)))
                .build();
    }

    @Override
    public S3Presigner presigner() {
        return S3Presigner.builder().endpointOverride(endpoint()).region(region)
                .credentialsProvider(credentials(ACCESS_KEY, SECRET_KEY))
                .serviceConfiguration(software.amazon.awssdk.services.s3.S3Configuration.builder()
                        .pathStyleAccessEnabled(true).build())
                .build();
    }

    private AttributeMap httpOptions() {
        return AttributeMap.builder().put(SdkHttpConfigurationOption.TRUST_ALL_CERTIFICATES, tls).build();
    }

    @Override
    public void close() {
        server.close();
    }
}
