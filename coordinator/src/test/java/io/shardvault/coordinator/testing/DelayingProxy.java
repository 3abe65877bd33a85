package io.shardvault.coordinator.testing;

import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.common.rpc.RpcMessage;
import io.shardvault.common.rpc.RpcServer;
import io.shardvault.common.rpc.RpcServerConfig;
import io.shardvault.common.rpc.RpcTransport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A slow pod: an RPC server (on loopback, unless told another address) that forwards every request to a real
 * server after {@link #delay(Duration)}. Put its address in a vault in place of the pod's to make that pod slow
 * without touching it. Thread-safe; close it before the transport.
 */
public final class DelayingProxy implements AutoCloseable {
    private final RpcClient client;
    private final RpcServer server;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "delaying-proxy");
        t.setDaemon(true);
        return t;
    });
    private volatile long delayNanos;
    /** The one op code delayed, or -1 for every op. */
    private volatile int delayedOp = -1;

    public DelayingProxy(RpcTransport transport, InetSocketAddress target) throws IOException {
        this(transport, new InetSocketAddress("127.0.0.1", 0), target);
    }

    /** Listening on {@code bind}: an address coordinators on other hosts reach (a test network's, say). */
    public DelayingProxy(RpcTransport transport, InetSocketAddress bind, InetSocketAddress target) throws IOException {
        this.client = RpcClient.create(transport, RpcClientConfig.defaults().withRequestTimeout(Duration.ofSeconds(60)));
        this.server = RpcServer.start(transport, RpcServerConfig.defaults(), bind,
                request -> {
                    // The server releases the request when the answer is done; the forwarded copy is the client's.
                    RpcMessage forward = new RpcMessage(request.op(), request.header().retainedDuplicate(),
                            request.payload().retainedDuplicate());
                    CompletableFuture<RpcMessage> answer = new CompletableFuture<>();
                    int op = delayedOp;
                    long delay = op == -1 || op == request.op() ? delayNanos : 0;
                    timer.schedule(() -> client.call(target, forward).whenComplete((response, failure) -> {
                        if (failure != null) {
                            answer.completeExceptionally(failure);
                        } else {
                            answer.complete(response);
                        }
                    }), delay, TimeUnit.NANOSECONDS);
                    return answer;
                });
    }

    public InetSocketAddress address() {
        return server.localAddress();
    }

    public void delay(Duration delay) {
        this.delayNanos = delay.toNanos();
    }

    /** Delays only requests of {@code op}; the others pass at once, so they can overtake the delayed ones. */
    public void delayOnly(int op) {
        this.delayedOp = op;
    }

    @Override
    public void close() {
        server.close();
        client.close();
        timer.shutdownNow();
    }
}
