package io.shardvault.coordinator.certs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.config.Settings;
import io.shardvault.common.config.TlsSettings;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.common.rpc.RpcTls;
import io.shardvault.common.rpc.RpcTransport;
import io.shardvault.common.rpc.RpcTransportConfig;
import io.shardvault.pod.PodConfig;
import io.shardvault.pod.PodServer;
import io.shardvault.pod.api.PodAssignment;
import io.shardvault.pod.api.PodClient;
import io.shardvault.pod.api.PodSlot;
import io.shardvault.pod.api.WriteMode;
import io.shardvault.stash.StashConfig;
import io.shardvault.stash.StashServer;
import io.shardvault.stash.api.StashClient;
import io.shardvault.stash.api.StashEntry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;

/**
 * Mutual TLS on the internal RPC (issue #21), against a real pod and a real stash server listening
 * with a certificate of the cluster CA, every certificate made by {@code shardvault certs}: a client
 * with a certificate of that CA works, on either engine; a client with no certificate, with one of
 * another CA, or without TLS at all is refused at the handshake and nothing is written; a client
 * refuses a server whose certificate does not name the address it dialled.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class InternalTlsTest {
    private static final ShardId SHARD = new ShardId(7, 42L, 4);
    private static final byte[] DATA = "a chunk over mutual TLS".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;
    private final List<AutoCloseable> open = new ArrayList<>();
    private TlsSettings clusterCoordinator;
    private PodServer pod;
    private StashServer stash;

    @BeforeEach
    void setUp() throws Exception {
        Path certs = dir.resolve("certs");
        TlsSettings server = CertsFixture.issue(certs, "pod-host", "127.0.0.1,localhost");
        clusterCoordinator = CertsFixture.issue(certs, "coordinator", "127.0.0.1");
        RpcTransport serverTransport = closing(RpcTransport.create(
                new RpcTransportConfig(true, 2, Optional.of(server))));
        RpcClient podStash = closing(RpcClient.create(serverTransport, RpcClientConfig.defaults()));
        stash = closing(StashServer.start(serverTransport, StashConfig.defaults(dir.resolve("stash")),
                new InetSocketAddress("127.0.0.1", 0), new SimpleMeterRegistry()));
        pod = closing(PodServer.start(serverTransport, PodConfig.from(Settings.of(Map.of(
                "pod.name", "p0", "pod.bind", "127.0.0.1:0",
                "pod.stateDir", dir.resolve("state").toString(), "pod.tomes", dir.resolve("t0").toString()))),
                podStash, new SimpleMeterRegistry()));
        new PodClient(clusterClient()).assign(pod.localAddress(), new PodAssignment(
                List.of(new PodSlot(SHARD.shardIndex(), SHARD.vaultId())), List.of(stash.localAddress()))).join();
    }

    @AfterEach
    void tearDown() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private <T extends AutoCloseable> T closing(T resource) {
        open.add(resource);
        return resource;
    }

    private RpcClient client(RpcTls tls) {
        RpcTransport transport = closing(RpcTransport.create(new RpcTransportConfig(true, 1), tls));
        return closing(RpcClient.create(transport, RpcClientConfig.defaults().withRequestTimeout(Duration.ofSeconds(10))));
    }

    private RpcClient clusterClient() {
        return client(RpcTls.from(clusterCoordinator));
    }

    @ParameterizedTest
    @EnumSource(RpcTls.Engine.class)
    void aClientWithACertificateOfTheClusterCaWritesAndReadsOnEitherEngine(RpcTls.Engine engine) {
        RpcClient rpc = client(RpcTls.from(clusterCoordinator, engine));
        PodClient pods = new PodClient(rpc);
        StashClient stashes = new StashClient(rpc);

        pods.write(pod.localAddress(), SHARD, 0, Crc32c.of(DATA), WriteMode.DURABLE, Unpooled.wrappedBuffer(DATA)).join();
        stashes.put(stash.localAddress(), SHARD, 0, Crc32c.of(DATA), Unpooled.wrappedBuffer(DATA)).join();

        ByteBuf read = pods.read(pod.localAddress(), SHARD, 0, DATA.length).join();
        try {
            assertThat(ByteBufUtil.getBytes(read)).isEqualTo(DATA);
        } finally {
            read.release();
        }
        try (StashEntry entry = stashes.get(stash.localAddress(), SHARD).join()) {
            assertThat(ByteBufUtil.getBytes(entry.data())).isEqualTo(DATA);
        }
    }

    @Test
    void aClientWithoutACertificateIsRefusedAndWritesNothing() {
        // Trusts the servers (it could talk to them) but has nothing to show.
        assertRefusedAndNothingWritten(client(RpcTls.clientWithoutCertificate(clusterCoordinator.ca())));
    }

    @Test
    void aClientWithACertificateOfAnotherCaIsRefusedAndWritesNothing() {
        TlsSettings foreign = CertsFixture.issue(dir.resolve("other-ca"), "intruder", "127.0.0.1");
        // Its own certificate from a CA of its own, though it trusts the cluster's CA.
        assertRefusedAndNothingWritten(client(RpcTls.from(new TlsSettings(foreign.certificate(), foreign.key(),
                clusterCoordinator.ca()))));
    }

    @Test
    void aClientWithoutTlsIsRefusedAndWritesNothing() {
        assertRefusedAndNothingWritten(client(null));
    }

    @Test
    void aClientRefusesAServerWhoseCertificateDoesNotNameTheAddressItDialled() throws Exception {
        TlsSettings elsewhere = CertsFixture.issue(dir.resolve("certs"), "elsewhere", "10.0.0.1,pod.example");
        RpcTransport transport = closing(RpcTransport.create(new RpcTransportConfig(true, 1, Optional.of(elsewhere))));
        StashServer misnamed = closing(StashServer.start(transport, StashConfig.defaults(dir.resolve("stash-2")),
                new InetSocketAddress("127.0.0.1", 0), new SimpleMeterRegistry()));

        CompletableFuture<Void> put = new StashClient(clusterClient()).put(misnamed.localAddress(), SHARD, 0,
                Crc32c.of(DATA), Unpooled.wrappedBuffer(DATA));

        assertThatThrownBy(put::join).isInstanceOf(CompletionException.class)
                .satisfies(e -> assertThat(RpcException.from(e).code()).isEqualTo(ErrorCode.UNREACHABLE))
                .hasMessageContaining("TLS handshake");
    }

    @Test
    void aScannerHammeringThePortLeavesOneWarnPerAddressPerMinute() throws Exception {
        Logger logger = (Logger) LoggerFactory.getLogger("io.shardvault");
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        logger.addAppender(events);
        try {
            for (int i = 0; i < 5; i++) {
                refusedWithoutCertificate(stash.localAddress());
                refusedPlaintext(stash.localAddress());
            }
        } finally {
            logger.detachAppender(events);
        }
        // Each refused connection was closed by the server after it logged (or counted) its refusal.
        List<String> warnings = events.list.stream().filter(e -> e.getLevel() == Level.WARN)
                .map(ILoggingEvent::getFormattedMessage).filter(m -> m.contains("closing connection")).toList();
        assertThat(warnings).singleElement().asString().contains("remote=/127.0.0.1");
    }

    /** A TLS client showing no certificate, reading until the server hangs up. */
    private void refusedWithoutCertificate(InetSocketAddress server) throws Exception {
        javax.net.ssl.SSLContext ssl = javax.net.ssl.SSLContext.getInstance("TLS");
        java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(clusterCoordinator.ca())) {
            trust.setCertificateEntry("ca", java.security.cert.CertificateFactory.getInstance("X.509")
                    .generateCertificate(in));
        }
        javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance(
                javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        ssl.init(null, tmf.getTrustManagers(), null);
        try (Socket socket = ssl.getSocketFactory().createSocket(server.getAddress(), server.getPort())) {
            socket.setSoTimeout(10_000);
            drain(socket);
        } catch (IOException refused) {
            // The refusal itself: a handshake alert or a reset.
        }
    }

    /** A plaintext client, as a port scanner probing for HTTP. */
    private static void refusedPlaintext(InetSocketAddress server) throws Exception {
        try (Socket socket = new Socket(server.getAddress(), server.getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write("GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            drain(socket);
        } catch (IOException refused) {
            // Reset by the server.
        }
    }

    private static void drain(Socket socket) throws IOException {
        byte[] buffer = new byte[512];
        while (socket.getInputStream().read(buffer) >= 0) {
            // until the server closes
        }
    }

    /** Every call fails, and the pod and the stash hold nothing, as a client of the cluster sees them. */
    private void assertRefusedAndNothingWritten(RpcClient intruder) {
        CompletableFuture<Void> write = new PodClient(intruder).write(pod.localAddress(), SHARD, 0, Crc32c.of(DATA),
                WriteMode.DURABLE, Unpooled.wrappedBuffer(DATA));
        CompletableFuture<Void> put = new StashClient(intruder).put(stash.localAddress(), SHARD, 0, Crc32c.of(DATA),
                Unpooled.wrappedBuffer(DATA));
        CompletableFuture<Boolean> delete = new PodClient(intruder).delete(pod.localAddress(), SHARD);

        for (CompletableFuture<?> call : List.of(write, put, delete)) {
            assertThatThrownBy(call::join).isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(RpcException.class);
        }
        RpcClient cluster = clusterClient();
        assertThat(new PodClient(cluster).list(pod.localAddress(), Optional.empty(), 100).join().ids()).isEmpty();
        assertThat(new StashClient(cluster).stats(stash.localAddress()).join().entries()).isZero();
    }
}
