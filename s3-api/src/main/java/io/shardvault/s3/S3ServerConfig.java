package io.shardvault.s3;

import io.shardvault.common.config.ListenerGuard;
import io.shardvault.common.config.Settings;
import io.shardvault.s3.sosapi.SosapiConfig;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The options of the S3 endpoint, resolved once at startup (keys in {@link S3ConfigKeys}).
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>option</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>maxInitialLineBytes</td><td>16 KiB</td><td>longer request lines get 414</td></tr>
 *   <tr><td>maxHeaderBytes</td><td>16 KiB</td><td>larger header blocks get 431</td></tr>
 *   <tr><td>maxHeaderCount</td><td>128</td><td>more headers get 431</td></tr>
 *   <tr><td>maxXmlBytes</td><td>2 MiB</td><td>larger XML bodies are MalformedXML (400)</td></tr>
 *   <tr><td>maxClockSkew</td><td>15 min</td><td>RequestTimeTooSkewed (403)</td></tr>
 *   <tr><td>maxPresignedExpiry</td><td>7 days</td><td>longer X-Amz-Expires is AuthorizationQueryParametersError</td></tr>
 *   <tr><td>sigV2Enabled</td><td>true</td><td>when off, SigV2 requests are InvalidRequest (400)</td></tr>
 *   <tr><td>maxQueuedRequests</td><td>10,000</td><td>beyond this, SlowDown (503)</td></tr>
 *   <tr><td>idleTimeout</td><td>5 min</td><td>idle connections are closed</td></tr>
 * </table>
 *
 * @param tlsCertificate PEM certificate chain, or {@code null} for plain HTTP
 * @param tlsPrivateKey PEM private key, or {@code null} for plain HTTP
 * @param sosapi SOSAPI's virtual objects (issue #9)
 * @param sigV2Enabled whether AWS Signature Version 2 is accepted besides SigV4 (issue #17)
 */
public record S3ServerConfig(String bindHost, int port, String region, List<String> baseDomains,
                             int maxInitialLineBytes, int maxHeaderBytes, int maxHeaderCount, int maxXmlBytes,
                             Duration maxClockSkew, Duration maxPresignedExpiry, int ioThreads, int workerThreads,
                             int maxQueuedRequests, Duration idleTimeout, Path tlsCertificate, Path tlsPrivateKey,
                             SosapiConfig sosapi, boolean sigV2Enabled) {
    public S3ServerConfig {
        Objects.requireNonNull(bindHost, "bindHost");
        Objects.requireNonNull(region, "region");
        baseDomains = baseDomains.stream().map(d -> d.trim().toLowerCase(Locale.ROOT)).filter(d -> !d.isEmpty())
                .toList();
        Objects.requireNonNull(maxClockSkew, "maxClockSkew");
        Objects.requireNonNull(maxPresignedExpiry, "maxPresignedExpiry");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(sosapi, "sosapi");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be in [0, 65535]: " + port);
        }
        if (maxInitialLineBytes < 1024 || maxHeaderBytes < 1024 || maxHeaderCount < 8 || maxXmlBytes < 1024) {
            throw new IllegalArgumentException("limits too small: line " + maxInitialLineBytes + ", headers "
                    + maxHeaderBytes + "/" + maxHeaderCount + ", xml " + maxXmlBytes);
        }
        if (ioThreads < 1 || workerThreads < 1 || maxQueuedRequests < 1) {
            throw new IllegalArgumentException("threads and queue must be >= 1: " + ioThreads + ", "
                    + workerThreads + ", " + maxQueuedRequests);
        }
        if ((tlsCertificate == null) != (tlsPrivateKey == null)) {
            throw new IllegalArgumentException("TLS needs both a certificate and a private key");
        }
    }

    /** The options with SOSAPI's defaults and SigV2 on (the constructor before issue #9). */
    public S3ServerConfig(String bindHost, int port, String region, List<String> baseDomains,
                          int maxInitialLineBytes, int maxHeaderBytes, int maxHeaderCount, int maxXmlBytes,
                          Duration maxClockSkew, Duration maxPresignedExpiry, int ioThreads, int workerThreads,
                          int maxQueuedRequests, Duration idleTimeout, Path tlsCertificate, Path tlsPrivateKey) {
        this(bindHost, port, region, baseDomains, maxInitialLineBytes, maxHeaderBytes, maxHeaderCount, maxXmlBytes,
                maxClockSkew, maxPresignedExpiry, ioThreads, workerThreads, maxQueuedRequests, idleTimeout,
                tlsCertificate, tlsPrivateKey, SosapiConfig.defaults(), true);
    }

    public static S3ServerConfig from(Settings s) {
        boolean tls = s.get(S3ConfigKeys.TLS_ENABLED);
        String host = s.get(S3ConfigKeys.BIND_HOST);
        int port = s.get(S3ConfigKeys.PORT);
        // SigV4 keeps the secret off the wire, but over plain HTTP every object and header is readable.
        ListenerGuard.from(s).admit(S3ConfigKeys.BIND_HOST.name(), new InetSocketAddress(host, port), tls);
        return new S3ServerConfig(host, port, s.get(S3ConfigKeys.REGION),
                Arrays.asList(s.get(S3ConfigKeys.BASE_DOMAINS).split(",")),
                Math.toIntExact(s.get(S3ConfigKeys.MAX_INITIAL_LINE_BYTES)),
                Math.toIntExact(s.get(S3ConfigKeys.MAX_HEADER_BYTES)), s.get(S3ConfigKeys.MAX_HEADER_COUNT),
                Math.toIntExact(s.get(S3ConfigKeys.MAX_XML_BYTES)), s.get(S3ConfigKeys.MAX_CLOCK_SKEW),
                s.get(S3ConfigKeys.MAX_PRESIGNED_EXPIRY), s.get(S3ConfigKeys.IO_THREADS),
                s.get(S3ConfigKeys.WORKER_THREADS), s.get(S3ConfigKeys.MAX_QUEUED_REQUESTS),
                s.get(S3ConfigKeys.IDLE_TIMEOUT), tls ? s.get(S3ConfigKeys.TLS_CERTIFICATE) : null,
                tls ? s.get(S3ConfigKeys.TLS_PRIVATE_KEY) : null, SosapiConfig.from(s), s.get(S3ConfigKeys.SIGV2_ENABLED));
    }

    public static S3ServerConfig defaults() {
        return from(Settings.empty());
    }

    /** A copy listening on another host and port (tests use 127.0.0.1 and 0). */
    public S3ServerConfig withBind(String host, int newPort) {
        return new S3ServerConfig(host, newPort, region, baseDomains, maxInitialLineBytes, maxHeaderBytes,
                maxHeaderCount, maxXmlBytes, maxClockSkew, maxPresignedExpiry, ioThreads, workerThreads,
                maxQueuedRequests, idleTimeout, tlsCertificate, tlsPrivateKey, sosapi, sigV2Enabled);
    }

    /** A copy serving HTTPS with these PEM files. */
    public S3ServerConfig withTls(Path certificate, Path privateKey) {
        return new S3ServerConfig(bindHost, port, region, baseDomains, maxInitialLineBytes, maxHeaderBytes,
                maxHeaderCount, maxXmlBytes, maxClockSkew, maxPresignedExpiry, ioThreads, workerThreads,
                maxQueuedRequests, idleTimeout, certificate, privateKey, sosapi, sigV2Enabled);
    }

    /** A copy serving another region. */
    public S3ServerConfig withRegion(String newRegion) {
        return new S3ServerConfig(bindHost, port, newRegion, baseDomains, maxInitialLineBytes, maxHeaderBytes,
                maxHeaderCount, maxXmlBytes, maxClockSkew, maxPresignedExpiry, ioThreads, workerThreads,
                maxQueuedRequests, idleTimeout, tlsCertificate, tlsPrivateKey, sosapi, sigV2Enabled);
    }

    /** A copy with other SOSAPI options. */
    public S3ServerConfig withSosapi(SosapiConfig newSosapi) {
        return new S3ServerConfig(bindHost, port, region, baseDomains, maxInitialLineBytes, maxHeaderBytes,
                maxHeaderCount, maxXmlBytes, maxClockSkew, maxPresignedExpiry, ioThreads, workerThreads,
                maxQueuedRequests, idleTimeout, tlsCertificate, tlsPrivateKey, newSosapi, sigV2Enabled);
    }

    /** A copy that accepts SigV2 or not. */
    public S3ServerConfig withSigV2(boolean enabled) {
        return new S3ServerConfig(bindHost, port, region, baseDomains, maxInitialLineBytes, maxHeaderBytes,
                maxHeaderCount, maxXmlBytes, maxClockSkew, maxPresignedExpiry, ioThreads, workerThreads,
                maxQueuedRequests, idleTimeout, tlsCertificate, tlsPrivateKey, sosapi, enabled);
    }

    public boolean tlsEnabled() {
        return tlsCertificate != null;
    }
}
