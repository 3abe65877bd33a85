package io.shardvault.common.rpc;

import io.shardvault.common.config.Settings;

/**
 * How a process moves RPC bytes.
 *
 * @param nativeTransport epoll where available, else NIO
 * @param ioThreads event-loop threads
 */
public record RpcTransportConfig(boolean nativeTransport, int ioThreads) {
    public RpcTransportConfig {
        if (ioThreads < 1) {
            throw new IllegalArgumentException("ioThreads must be >= 1: " + ioThreads);
        }
    }

    public static RpcTransportConfig from(Settings settings) {
        return new RpcTransportConfig(settings.get(RpcConfigKeys.NATIVE_TRANSPORT),
                settings.get(RpcConfigKeys.IO_THREADS));
    }

    public static RpcTransportConfig defaults() {
        return from(Settings.empty());
    }
}
