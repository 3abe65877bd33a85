package io.shardvault.common.rpc;

import io.shardvault.common.config.Settings;
import java.time.Duration;
import java.util.Objects;

/**
 * The options of one RPC server.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>option</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>maxFrameBytes</td><td>64 MiB</td><td>larger incoming frames close the connection</td></tr>
 *   <tr><td>workerThreads</td><td>2 x cores, at least 4</td><td>threads running handlers</td></tr>
 *   <tr><td>maxQueuedRequests</td><td>10,000</td><td>beyond this, requests are answered BUSY</td></tr>
 *   <tr><td>drainTimeout</td><td>30 s</td><td>how long close() waits for in-flight requests</td></tr>
 * </table>
 */
public record RpcServerConfig(int maxFrameBytes, int workerThreads, int maxQueuedRequests, Duration drainTimeout) {
    public RpcServerConfig {
        if (maxFrameBytes < 1024) {
            throw new IllegalArgumentException("maxFrameBytes must be >= 1024: " + maxFrameBytes);
        }
        if (workerThreads < 1) {
            throw new IllegalArgumentException("workerThreads must be >= 1: " + workerThreads);
        }
        if (maxQueuedRequests < 1) {
            throw new IllegalArgumentException("maxQueuedRequests must be >= 1: " + maxQueuedRequests);
        }
        Objects.requireNonNull(drainTimeout, "drainTimeout");
    }

    public static RpcServerConfig from(Settings settings) {
        return new RpcServerConfig(Math.toIntExact(settings.get(RpcConfigKeys.MAX_FRAME_BYTES)),
                settings.get(RpcConfigKeys.WORKER_THREADS), settings.get(RpcConfigKeys.MAX_QUEUED_REQUESTS),
                settings.get(RpcConfigKeys.DRAIN_TIMEOUT));
    }

    public static RpcServerConfig defaults() {
        return from(Settings.empty());
    }
}
