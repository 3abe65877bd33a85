package io.shardvault.common.rpc;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * The meters of the internal protocol, shared by the clients and servers of one process.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>meaning</th></tr>
 *   <tr><td>{@code shardvault.rpc.client.calls}</td><td>timer</td><td>op, peer, outcome</td>
 *       <td>one call, from {@link RpcClient#call} to its answer or failure</td></tr>
 *   <tr><td>{@code shardvault.rpc.server.requests}</td><td>timer</td><td>op, outcome</td>
 *       <td>one request, from its arrival to its answer being ready (queueing included)</td></tr>
 * </table>
 * {@code op} is the readable name the services registered ({@code stash.put}, {@code pod.write}),
 * or {@code 0x0101} for a code nobody named; {@code peer} is {@code host:port}; {@code outcome} is
 * {@code ok} or the lower-case {@link io.shardvault.common.ErrorCode} ({@code timeout},
 * {@code unreachable}, {@code stash_full}, ...).
 *
 * <p>Thread-safe. Timers are looked up once per tag set and cached.
 */
public final class RpcMetrics {
    private static final RpcMetrics NONE = new RpcMetrics(null, op -> null);

    private final MeterRegistry registry;
    private final IntFunction<String> opNames;
    private final ConcurrentMap<ClientKey, Timer> clientTimers = new ConcurrentHashMap<>();
    private final ConcurrentMap<ServerKey, Timer> serverTimers = new ConcurrentHashMap<>();

    private RpcMetrics(MeterRegistry registry, IntFunction<String> opNames) {
        this.registry = registry;
        this.opNames = opNames;
    }

    /**
     * Meters in {@code registry}.
     *
     * @param opNames op code to readable name, e.g. from {@link #opNames(Map...)}; {@code null} for
     *                a code it does not know (the tag is then the hex code)
     */
    public static RpcMetrics create(MeterRegistry registry, IntFunction<String> opNames) {
        return new RpcMetrics(Objects.requireNonNull(registry, "registry"), Objects.requireNonNull(opNames, "opNames"));
    }

    /** Records nothing: for tools and tests that do not publish meters. */
    public static RpcMetrics none() {
        return NONE;
    }

    /** One lookup over the op-name tables of several services (each service names its own codes). */
    @SafeVarargs
    public static IntFunction<String> opNames(Map<Integer, String>... tables) {
        Map<Integer, String> all = new java.util.HashMap<>();
        for (Map<Integer, String> t : tables) {
            all.putAll(t);
        }
        Map<Integer, String> frozen = Map.copyOf(all);
        return frozen::get;
    }

    /** The tag value of a failure: {@code ok} for none, else the error code in lower case. */
    public static String outcome(Throwable failure) {
        if (failure == null) {
            return "ok";
        }
        return RpcException.from(failure).code().name().toLowerCase(Locale.ROOT);
    }

    void recordClientCall(int op, InetSocketAddress peer, Throwable failure, long nanos) {
        if (registry == null) {
            return;
        }
        ClientKey key = new ClientKey(op, peer, outcome(failure));
        clientTimers.computeIfAbsent(key, k -> Timer.builder("shardvault.rpc.client.calls")
                .description("internal RPC calls made, from call to answer")
                .tags("op", opName(k.op), "peer", k.peer.getHostString() + ":" + k.peer.getPort(), "outcome", k.outcome)
                .register(registry)).record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Records one served request; called by the server's dispatcher. */
    public void recordServerRequest(int op, Throwable failure, long nanos) {
        if (registry == null) {
            return;
        }
        ServerKey key = new ServerKey(op, outcome(failure));
        serverTimers.computeIfAbsent(key, k -> Timer.builder("shardvault.rpc.server.requests")
                .description("internal RPC requests served, from arrival to answer")
                .tags("op", opName(k.op), "outcome", k.outcome)
                .register(registry)).record(nanos, TimeUnit.NANOSECONDS);
    }

    private String opName(int op) {
        String name = opNames.apply(op);
        return name != null ? name : String.format("0x%04x", op);
    }

    // equals and hashCode written out: pods and stash servers run C1 code only, which calls a record's
    // generated ones through method-handle chains (seen in their profiles), and these keys are looked up
    // on every request.
    private record ClientKey(int op, InetSocketAddress peer, String outcome) {
        @Override
        public boolean equals(Object o) {
            return o instanceof ClientKey k && k.op == op && k.peer.equals(peer) && k.outcome.equals(outcome);
        }

        @Override
        public int hashCode() {
            return (31 * op + peer.hashCode()) * 31 + outcome.hashCode();
        }
    }

    private record ServerKey(int op, String outcome) {
        @Override
        public boolean equals(Object o) {
            return o instanceof ServerKey k && k.op == op && k.outcome.equals(outcome);
        }

        @Override
        public int hashCode() {
            return 31 * op + outcome.hashCode();
        }
    }
}
