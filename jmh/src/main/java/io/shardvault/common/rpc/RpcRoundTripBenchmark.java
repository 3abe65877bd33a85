package io.shardvault.common.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.shardvault.jmh.AbstractBenchmark;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Round trips of 64 KiB payloads over loopback through the real client, server and transport.
 * {@code write}: a 64 KiB request answered with an empty ack (a shard write); {@code echo}: the
 * 64 KiB come back too (a shard read). {@link #oneInFlight} gives latency percentiles;
 * {@link #sixtyFourInFlight} keeps 64 requests on the wire and gives throughput
 * (requests/s x 64 KiB = payload MB/s one way).
 */
@State(Scope.Benchmark)
public class RpcRoundTripBenchmark extends AbstractBenchmark {
    private static final int WRITE = 1;
    private static final int ECHO = 2;
    private static final int PAYLOAD_BYTES = 64 << 10;

    @Param({"epoll", "nio"})
    public String transportKind;

    @Param({"write", "echo"})
    public String shape;

    private RpcTransport transport;
    private RpcServer server;
    private RpcClient client;
    private InetSocketAddress address;
    private ByteBuf payload;
    private int op;

    @Setup(Level.Trial)
    public void start() throws IOException {
        transport = createTransport(new RpcTransportConfig("epoll".equals(transportKind), 2));
        server = RpcServer.start(transport, new RpcServerConfig(4 << 20, 4, 10_000, Duration.ofSeconds(5)),
                new InetSocketAddress("127.0.0.1", 0), request -> CompletableFuture.completedFuture(
                        request.op() == ECHO
                                ? RpcMessage.ofPayload(ECHO, request.payload().retainedSlice())
                                : RpcMessage.empty(WRITE)));
        client = RpcClient.create(transport, new RpcClientConfig(4 << 20, 1, Duration.ofSeconds(5),
                Duration.ofSeconds(30), Duration.ofSeconds(5)));
        address = server.localAddress();
        byte[] bytes = new byte[PAYLOAD_BYTES];
        new java.util.Random(1).nextBytes(bytes);
        payload = Unpooled.unreleasableBuffer(PooledByteBufAllocator.DEFAULT.directBuffer(PAYLOAD_BYTES)
                .writeBytes(bytes));
        op = "echo".equals(shape) ? ECHO : WRITE;
    }

    /** Plaintext; {@link RpcRoundTripTlsBenchmark} speaks mutual TLS. */
    protected RpcTransport createTransport(RpcTransportConfig config) throws IOException {
        return RpcTransport.create(config);
    }

    @TearDown(Level.Trial)
    public void stop() {
        client.close();
        server.close();
        transport.close();
    }

    private CompletableFuture<RpcMessage> send() {
        return client.call(address, RpcMessage.ofPayload(op, payload.duplicate()));
    }

    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public int oneInFlight() {
        try (RpcMessage answer = send().join()) {
            return answer.payload().readableBytes();
        }
    }

    @Benchmark
    @OperationsPerInvocation(64)
    public int sixtyFourInFlight() {
        List<CompletableFuture<RpcMessage>> calls = new ArrayList<>(64);
        for (int i = 0; i < 64; i++) {
            calls.add(send());
        }
        int bytes = 0;
        for (CompletableFuture<RpcMessage> call : calls) {
            try (RpcMessage answer = call.join()) {
                bytes += answer.payload().readableBytes();
            }
        }
        return bytes;
    }
}
