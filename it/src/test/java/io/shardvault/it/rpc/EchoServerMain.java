package io.shardvault.it.rpc;

import io.shardvault.common.rpc.RpcMessage;
import io.shardvault.common.rpc.RpcServer;
import io.shardvault.common.rpc.RpcServerConfig;
import io.shardvault.common.rpc.RpcTransport;
import io.shardvault.common.rpc.RpcTransportConfig;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A child-JVM server for process-level tests: op 1 echoes at once, op 2 answers after 30 s (so it
 * is still pending when the process is killed). Prints {@code listening PORT} once ready.
 */
public final class EchoServerMain {
    public static final int ECHO = 1;
    public static final int SLOW = 2;

    private EchoServerMain() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        RpcTransport transport = RpcTransport.create(RpcTransportConfig.defaults());
        RpcServer server = RpcServer.start(transport, RpcServerConfig.defaults(),
                new InetSocketAddress("127.0.0.1", port), request -> request.op() == ECHO
                        ? CompletableFuture.completedFuture(
                                RpcMessage.ofPayload(ECHO, request.payload().retainedSlice()))
                        : CompletableFuture.supplyAsync(() -> RpcMessage.empty(SLOW),
                                CompletableFuture.delayedExecutor(30, TimeUnit.SECONDS)));
        System.out.println("listening " + server.localAddress().getPort());
        System.out.flush();
        Thread.currentThread().join();
    }
}
