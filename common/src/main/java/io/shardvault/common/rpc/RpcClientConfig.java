package io.shardvault.common.rpc;

import io.shardvault.common.config.Settings;
import java.time.Duration;
import java.util.Objects;

/**
 * The options of one RPC client.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>option</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>maxFrameBytes</td><td>64 MiB</td><td>larger responses close the connection; larger requests fail</td></tr>
 *   <tr><td>connectionsPerPeer</td><td>2</td><td>pooled connections to each peer</td></tr>
 *   <tr><td>connectTimeout</td><td>5 s</td><td>TCP connect</td></tr>
 *   <tr><td>requestTimeout</td><td>30 s</td><td>per call, unless the call names its own</td></tr>
 *   <tr><td>drainTimeout</td><td>30 s</td><td>how long close() waits for calls in flight</td></tr>
 * </table>
 */
public record RpcClientConfig(int maxFrameBytes, int connectionsPerPeer, Duration connectTimeout,
                              Duration requestTimeout, Duration drainTimeout) {
    public RpcClientConfig {
        if (maxFrameBytes < 1024) {
            throw new IllegalArgumentException("maxFrameBytes must be >= 1024: " + maxFrameBytes);
        }
        if (connectionsPerPeer < 1) {
            throw new IllegalArgumentException("connectionsPerPeer must be >= 1: " + connectionsPerPeer);
        }
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        Objects.requireNonNull(drainTimeout, "drainTimeout");
    }

    public static RpcClientConfig from(Settings settings) {
        return new RpcClientConfig(Math.toIntExact(settings.get(RpcConfigKeys.MAX_FRAME_BYTES)),
                settings.get(RpcConfigKeys.CONNECTIONS_PER_PEER), settings.get(RpcConfigKeys.CONNECT_TIMEOUT),
                settings.get(RpcConfigKeys.REQUEST_TIMEOUT), settings.get(RpcConfigKeys.DRAIN_TIMEOUT));
    }

    public static RpcClientConfig defaults() {
        return from(Settings.empty());
    }

    public RpcClientConfig withRequestTimeout(Duration timeout) {
        return new RpcClientConfig(maxFrameBytes, connectionsPerPeer, connectTimeout, timeout, drainTimeout);
    }
}
