package io.shardvault.common.rpc;

import io.shardvault.common.config.Settings;
import io.shardvault.common.config.TlsSettings;
import java.util.Objects;
import java.util.Optional;

/**
 * How a process moves RPC bytes.
 *
 * @param nativeTransport epoll where available, else NIO
 * @param ioThreads event-loop threads
 * @param tls the process's cluster TLS identity: every server and client on the transport speaks
 *        mutual TLS ({@link RpcTls}); empty for plaintext
 */
public record RpcTransportConfig(boolean nativeTransport, int ioThreads, Optional<TlsSettings> tls) {
    public RpcTransportConfig {
        if (ioThreads < 1) {
            throw new IllegalArgumentException("ioThreads must be >= 1: " + ioThreads);
        }
        Objects.requireNonNull(tls, "tls");
    }

    /** A plaintext transport. */
    public RpcTransportConfig(boolean nativeTransport, int ioThreads) {
        this(nativeTransport, ioThreads, Optional.empty());
    }

    public static RpcTransportConfig from(Settings settings) {
        return new RpcTransportConfig(settings.get(RpcConfigKeys.NATIVE_TRANSPORT),
                settings.get(RpcConfigKeys.IO_THREADS), TlsSettings.from(settings));
    }

    public static RpcTransportConfig defaults() {
        return from(Settings.empty());
    }
}
