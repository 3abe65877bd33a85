package io.shardvault.common.rpc;

import io.shardvault.common.config.TlsSettings;
import io.shardvault.coordinator.certs.ClusterCa;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.openjdk.jmh.annotations.Param;

/**
 * {@link RpcRoundTripBenchmark} over mutual TLS (issue #21): the same round trips, the client and the
 * server each presenting a certificate of a throwaway cluster CA (EC P-256, made by {@code shardvault
 * certs}'s {@link ClusterCa} in a temporary directory), on the {@code engine} given.
 */
public class RpcRoundTripTlsBenchmark extends RpcRoundTripBenchmark {
    @Param({"OPENSSL", "JDK"})
    public String engine;

    @Override
    protected RpcTransport createTransport(RpcTransportConfig config) throws IOException {
        Path dir = Files.createTempDirectory("rpc-tls-bench");
        ClusterCa ca = new ClusterCa(dir, Clock.systemUTC());
        ca.createCa(ClusterCa.Algorithm.EC, false);
        ca.issue("bench", List.of("127.0.0.1"), ClusterCa.Algorithm.EC, Duration.ofDays(1), false);
        TlsSettings tls = new TlsSettings(ca.certificate("bench"), ca.key("bench"), ca.caCertificate());
        return RpcTransport.create(config, RpcTls.from(tls, RpcTls.Engine.valueOf(engine)));
    }
}
