package io.shardvault.common.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ErrorCode;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The RPC meters, over real sockets: client calls by op, peer and outcome; served requests by op and outcome. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RpcMetricsTest {
    private static final int ECHO = 0x0901;
    private static final int MISSING = 0x0902;
    private static final int UNNAMED = 0x0903;

    @Test
    void callsAndRequestsAreTimedByReadableOpAndOutcome() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RpcMetrics metrics = RpcMetrics.create(registry, RpcMetrics.opNames(Map.of(ECHO, "test.echo"),
                Map.of(MISSING, "test.missing")));
        try (RpcTransport transport = RpcTransport.create(new RpcTransportConfig(false, 1));
             RpcServer server = RpcServer.start(transport, RpcServerConfig.defaults(),
                     new InetSocketAddress("127.0.0.1", 0), request -> request.op() == MISSING
                             ? CompletableFuture.failedFuture(new RpcException(ErrorCode.NOT_FOUND, "no such thing"))
                             : CompletableFuture.completedFuture(new RpcMessage(request.op(), Unpooled.EMPTY_BUFFER,
                                     request.payload().retain())), metrics);
             RpcClient client = RpcClient.create(transport, RpcClientConfig.defaults()
                     .withRequestTimeout(Duration.ofSeconds(10)), metrics)) {
            InetSocketAddress peer = server.localAddress();
            for (int i = 0; i < 3; i++) {
                client.call(peer, new RpcMessage(ECHO, Unpooled.EMPTY_BUFFER, Unpooled.wrappedBuffer(new byte[10])))
                        .get().close();
            }
            assertThatThrownBy(() -> client.call(peer, new RpcMessage(MISSING, Unpooled.EMPTY_BUFFER,
                    Unpooled.EMPTY_BUFFER)).get()).isInstanceOf(ExecutionException.class);
            client.call(peer, new RpcMessage(UNNAMED, Unpooled.EMPTY_BUFFER, Unpooled.EMPTY_BUFFER)).get().close();
            InetSocketAddress nobody = new InetSocketAddress("127.0.0.1", 1);
            assertThatThrownBy(() -> client.call(nobody, new RpcMessage(ECHO, Unpooled.EMPTY_BUFFER,
                    Unpooled.EMPTY_BUFFER)).get()).isInstanceOf(ExecutionException.class);

            String peerTag = "127.0.0.1:" + peer.getPort();
            assertThat(clientTimer(registry, "test.echo", peerTag, "ok").count()).isEqualTo(3);
            assertThat(clientTimer(registry, "test.missing", peerTag, "not_found").count()).isEqualTo(1);
            assertThat(clientTimer(registry, "0x0903", peerTag, "ok").count()).isEqualTo(1);
            assertThat(clientTimer(registry, "test.echo", "127.0.0.1:1", "unreachable").count()).isEqualTo(1);
            // The server's timer stops when the answer is ready, possibly a moment after the client saw it.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (registry.find("shardvault.rpc.server.requests").tags("op", "test.echo").timer() == null
                    || registry.get("shardvault.rpc.server.requests").tags("op", "test.echo").timer().count() < 3) {
                assertThat(System.nanoTime()).isLessThan(deadline);
                Thread.sleep(10);
            }
            assertThat(registry.get("shardvault.rpc.server.requests").tags("op", "test.echo", "outcome", "ok")
                    .timer().count()).isEqualTo(3);
            assertThat(registry.get("shardvault.rpc.server.requests").tags("op", "test.missing", "outcome",
                    "not_found").timer().count()).isEqualTo(1);
        }
    }

    @Test
    void noneRecordsNothingAndTheOldSignaturesStillWork() throws Exception {
        try (RpcTransport transport = RpcTransport.create(new RpcTransportConfig(false, 1));
             RpcServer server = RpcServer.start(transport, RpcServerConfig.defaults(),
                     new InetSocketAddress("127.0.0.1", 0), request -> CompletableFuture.completedFuture(
                             new RpcMessage(request.op(), Unpooled.EMPTY_BUFFER, Unpooled.EMPTY_BUFFER)));
             RpcClient client = RpcClient.create(transport, RpcClientConfig.defaults())) {
            client.call(server.localAddress(), new RpcMessage(ECHO, Unpooled.EMPTY_BUFFER, Unpooled.EMPTY_BUFFER))
                    .get().close();
        }
        assertThat(RpcMetrics.outcome(null)).isEqualTo("ok");
        assertThat(RpcMetrics.outcome(new RpcException(ErrorCode.STASH_FULL, "full"))).isEqualTo("stash_full");
    }

    private static Timer clientTimer(SimpleMeterRegistry registry, String op, String peer, String outcome) {
        return registry.get("shardvault.rpc.client.calls").tags("op", op, "peer", peer, "outcome", outcome).timer();
    }
}
