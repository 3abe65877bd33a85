package io.shardvault.common.rpc;

import io.shardvault.common.config.ConfigKey;
import java.time.Duration;
import java.util.List;

/** The settings of the internal protocol, shared by every service. */
public final class RpcConfigKeys {
    private RpcConfigKeys() {
    }

    public static final ConfigKey<Boolean> NATIVE_TRANSPORT = ConfigKey.ofBoolean("rpc.transport.native", true,
            "Use the epoll transport where Linux offers it; NIO otherwise or when false.");
    public static final ConfigKey<Integer> IO_THREADS = ConfigKey.ofInt("rpc.transport.ioThreads",
            Math.max(2, Runtime.getRuntime().availableProcessors()), 1, 1024,
            "Netty event-loop threads shared by every RPC server and client of the process.");
    public static final ConfigKey<Long> MAX_FRAME_BYTES = ConfigKey.ofBytes("rpc.maxFrameBytes", 64L << 20,
            1L << 10, 1L << 30,
            "Largest frame accepted or sent; a larger incoming frame closes its connection. Must exceed the largest chunk.");
    public static final ConfigKey<Integer> WORKER_THREADS = ConfigKey.ofInt("rpc.server.workerThreads",
            Math.max(4, 2 * Runtime.getRuntime().availableProcessors()), 1, 4096,
            "Threads that run request handlers, off the event loops.");
    public static final ConfigKey<Integer> MAX_QUEUED_REQUESTS = ConfigKey.ofInt("rpc.server.maxQueuedRequests",
            10_000, 1, 1_000_000,
            "Requests waiting for a worker thread; beyond this a request is answered BUSY.");
    public static final ConfigKey<Duration> DRAIN_TIMEOUT = ConfigKey.ofDuration("rpc.drainTimeout",
            Duration.ofSeconds(30), Duration.ZERO, Duration.ofHours(1),
            "On shutdown, how long in-flight requests may take to finish before their connections are closed.");
    public static final ConfigKey<Integer> CONNECTIONS_PER_PEER = ConfigKey.ofInt("rpc.client.connectionsPerPeer", 2,
            1, 64, "Pooled connections a client keeps to each peer; requests are spread over them.");
    public static final ConfigKey<Duration> CONNECT_TIMEOUT = ConfigKey.ofDuration("rpc.client.connectTimeout",
            Duration.ofSeconds(5), Duration.ofMillis(1), Duration.ofMinutes(10),
            "How long a client waits for a TCP connection to a peer.");
    public static final ConfigKey<Duration> REQUEST_TIMEOUT = ConfigKey.ofDuration("rpc.client.requestTimeout",
            Duration.ofSeconds(30), Duration.ofMillis(1), Duration.ofHours(1),
            "How long a client waits for an answer when the call names no timeout of its own.");

    /** Every key above, for {@link io.shardvault.common.config.Settings#rejectUnknown}. */
    public static List<ConfigKey<?>> all() {
        return List.of(NATIVE_TRANSPORT, IO_THREADS, MAX_FRAME_BYTES, WORKER_THREADS, MAX_QUEUED_REQUESTS,
                DRAIN_TIMEOUT, CONNECTIONS_PER_PEER, CONNECT_TIMEOUT, REQUEST_TIMEOUT);
    }
}
