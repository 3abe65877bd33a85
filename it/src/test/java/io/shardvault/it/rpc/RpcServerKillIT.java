package io.shardvault.it.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.common.rpc.RpcMessage;
import io.shardvault.common.rpc.RpcTransport;
import io.shardvault.common.rpc.RpcTransportConfig;
import io.shardvault.common.testing.ChildJvm;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A server process killed with SIGKILL while requests are pending: every pending call fails at
 * once with CONNECTION_CLOSED (not after its timeout), and the client's pool reconnects to the
 * restarted process on the same port.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RpcServerKillIT {
    private final List<ChildJvm> children = new ArrayList<>();

    @AfterEach
    void killChildren() throws InterruptedException {
        for (ChildJvm child : children) {
            child.kill9();
        }
    }

    private int startServer(int port) throws Exception {
        ChildJvm child = ChildJvm.builder(EchoServerMain.class).name("echo-server").jvmArgs("-Xmx128m")
                .args(Integer.toString(port)).start();
        children.add(child);
        return Integer.parseInt(child.awaitLine("listening ", Duration.ofSeconds(60)));
    }

    @Test
    void pendingCallsFailAtOnceWhenTheServerDiesAndTheClientReconnectsAfterRestart() throws Exception {
        int port = startServer(0);
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", port);
        try (RpcTransport transport = RpcTransport.create(RpcTransportConfig.defaults())) {
            RpcClient client = RpcClient.create(transport, RpcClientConfig.defaults()
                    .withRequestTimeout(Duration.ofSeconds(60)));
            try (RpcMessage echo = client.call(address, RpcMessage.ofPayload(EchoServerMain.ECHO,
                    Unpooled.wrappedBuffer(new byte[] {42}))).join()) {
                assertThat(echo.payload().getByte(0)).isEqualTo((byte) 42);
            }
            List<CompletableFuture<RpcMessage>> pending = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                pending.add(client.call(address, RpcMessage.empty(EchoServerMain.SLOW)));
            }
            Thread.sleep(200);
            long killedAt = System.nanoTime();
            children.get(0).kill9();
            for (CompletableFuture<RpcMessage> call : pending) {
                try {
                    call.get(10, TimeUnit.SECONDS).close();
                    throw new AssertionError("a call to a killed server succeeded");
                } catch (java.util.concurrent.ExecutionException e) {
                    assertThat(RpcException.from(e).code()).isEqualTo(ErrorCode.CONNECTION_CLOSED);
                }
            }
            assertThat(Duration.ofNanos(System.nanoTime() - killedAt)).isLessThan(Duration.ofSeconds(10));

            startServer(port);
            boolean answered = false;
            for (int attempt = 0; attempt < 20 && !answered; attempt++) {
                try {
                    client.call(address, RpcMessage.empty(EchoServerMain.ECHO)).join().close();
                    answered = true;
                } catch (CompletionException e) {
                    assertThat(RpcException.from(e).code())
                            .isIn(ErrorCode.CONNECTION_CLOSED, ErrorCode.UNREACHABLE);
                    Thread.sleep(100);
                }
            }
            assertThat(answered).as("the client reconnected to the restarted server").isTrue();
            client.close();
        }
    }
}
