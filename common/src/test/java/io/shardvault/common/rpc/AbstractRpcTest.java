package io.shardvault.common.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.testing.FreePorts;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The protocol's behaviour on real loopback sockets, written once and run per transport by thin
 * subclasses.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
abstract class AbstractRpcTest {
    static final int ECHO = 1;
    static final int NEVER_ANSWER = 2;
    static final int FAIL_NOT_FOUND = 3;
    static final int THROW = 4;
    static final int SLOW = 5;
    static final int BLOCK = 6;
    static final int BIG_ANSWER = 7;

    /** Whether this run uses the native (epoll) transport. */
    abstract boolean nativeTransport();

    RpcTransport transport;
    RpcServer server;
    RpcClient client;
    final CountDownLatch unblock = new CountDownLatch(1);
    final AtomicInteger handled = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        transport = RpcTransport.create(new RpcTransportConfig(nativeTransport(), 2));
        assertThat(transport.isNative()).as(transport.description()).isEqualTo(nativeTransport());
        server = startServer(new RpcServerConfig(2 << 20, 4, 2000, Duration.ofSeconds(5)));
        client = RpcClient.create(transport, new RpcClientConfig(4 << 20, 1, Duration.ofSeconds(2),
                Duration.ofSeconds(20), Duration.ofSeconds(5)));
    }

    RpcServer startServer(RpcServerConfig config) throws IOException {
        return RpcServer.start(transport, config, new InetSocketAddress("127.0.0.1", 0), this::handle);
    }

    @AfterEach
    void stop() {
        unblock.countDown();
        client.close();
        server.close();
        transport.close();
    }

    private CompletableFuture<RpcMessage> handle(RpcMessage request) {
        handled.incrementAndGet();
        switch (request.op()) {
            case ECHO:
                return CompletableFuture.completedFuture(new RpcMessage(ECHO, request.header().retainedSlice(),
                        request.payload().retainedSlice()));
            case NEVER_ANSWER:
                return new CompletableFuture<>();
            case FAIL_NOT_FOUND:
                return CompletableFuture.failedFuture(new RpcException(ErrorCode.NOT_FOUND, "no such shard 1/2/3"));
            case THROW:
                throw new IllegalStateException("handler bug");
            case SLOW:
                return CompletableFuture.supplyAsync(() -> RpcMessage.empty(SLOW),
                        CompletableFuture.delayedExecutor(400, TimeUnit.MILLISECONDS));
            case BLOCK:
                try {
                    unblock.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return CompletableFuture.completedFuture(RpcMessage.empty(BLOCK));
            case BIG_ANSWER:
                return CompletableFuture.completedFuture(RpcMessage.ofPayload(BIG_ANSWER,
                        Unpooled.wrappedBuffer(new byte[200 << 10])));
            default:
                return CompletableFuture.failedFuture(new RpcException(ErrorCode.UNKNOWN_OP, "op " + request.op()));
        }
    }

    static ByteBuf randomBytes(Random random, int size) {
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        return Unpooled.wrappedBuffer(bytes);
    }

    RpcMessage call(RpcMessage request) {
        return client.call(server.localAddress(), request).join();
    }

    static RpcException failure(CompletableFuture<?> future) {
        try {
            future.join();
        } catch (CompletionException e) {
            assertThat(e.getCause()).isInstanceOf(RpcException.class);
            return (RpcException) e.getCause();
        }
        throw new AssertionError("expected the call to fail");
    }

    @Test
    void roundTripsEmptySmallAndOneMebibytePayloads() {
        Random random = new Random(42);
        for (int size : new int[] {0, 1, 100, 65_536, 1 << 20}) {
            ByteBuf payload = randomBytes(random, size);
            int expectedCrc = Crc32c.of(payload);
            ByteBuf header = Unpooled.copiedBuffer("header-" + size, StandardCharsets.UTF_8);
            try (RpcMessage answer = call(new RpcMessage(ECHO, header, payload))) {
                assertThat(answer.op()).isEqualTo(ECHO);
                assertThat(answer.header().toString(StandardCharsets.UTF_8)).isEqualTo("header-" + size);
                assertThat(answer.payload().readableBytes()).isEqualTo(size);
                assertThat(Crc32c.of(answer.payload())).isEqualTo(expectedCrc);
            }
        }
    }

    @Test
    void answersThousandConcurrentRequestsOnOneConnectionToTheRightCaller() {
        int calls = 1000;
        List<CompletableFuture<RpcMessage>> answers = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            ByteBuf payload = Unpooled.buffer(8 + i % 300).writeLong(i).writeZero(i % 300);
            answers.add(client.call(server.localAddress(), RpcMessage.ofPayload(ECHO, payload)));
        }
        for (int i = 0; i < calls; i++) {
            try (RpcMessage answer = answers.get(i).join()) {
                assertThat(answer.payload().readableBytes()).isEqualTo(8 + i % 300);
                assertThat(answer.payload().getLong(0)).as("answer to call %d", i).isEqualTo(i);
            }
        }
        assertThat(server.openConnections()).isEqualTo(1);
    }

    @Test
    void timesOutWhenTheServerNeverAnswersAndTheConnectionStillWorks() {
        RpcException timeout = failure(client.call(server.localAddress(), RpcMessage.empty(NEVER_ANSWER),
                Duration.ofMillis(200)));
        assertThat(timeout.code()).isEqualTo(ErrorCode.TIMEOUT);
        try (RpcMessage answer = call(RpcMessage.ofPayload(ECHO, Unpooled.wrappedBuffer(new byte[] {7})))) {
            assertThat(answer.payload().getByte(0)).isEqualTo((byte) 7);
        }
        assertThat(server.openConnections()).isEqualTo(1);
    }

    @Test
    void carriesTypedErrorsToTheCaller() {
        RpcException notFound = failure(client.call(server.localAddress(), RpcMessage.empty(FAIL_NOT_FOUND)));
        assertThat(notFound.code()).isEqualTo(ErrorCode.NOT_FOUND);
        assertThat(notFound.detail()).isEqualTo("no such shard 1/2/3");

        RpcException bug = failure(client.call(server.localAddress(), RpcMessage.empty(THROW)));
        assertThat(bug.code()).isEqualTo(ErrorCode.INTERNAL);
        assertThat(bug.detail()).contains("handler bug");

        RpcException unknown = failure(client.call(server.localAddress(), RpcMessage.empty(999)));
        assertThat(unknown.code()).isEqualTo(ErrorCode.UNKNOWN_OP);
    }

    @Test
    void closesOnlyTheConnectionThatSentAMalformedFrame() throws IOException {
        byte[] badMagic = prefix(16, 0x1234, 1, 0);
        byte[] badVersion = prefix(16, 0x5356, 9, 0);
        byte[] oversize = prefix(64 << 20, 0x5356, 1, 0);
        byte[] headerPastFrame = prefix(16, 0x5356, 1, 100);
        byte[] garbage = "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        for (byte[] bad : List.of(badMagic, badVersion, oversize, headerPastFrame, garbage)) {
            // The pooled client connection is open before and must stay usable after.
            echoOnce();
            assertThat(sendRawAndAwaitClose(bad)).as("server closed the bad connection").isTrue();
            echoOnce();
        }
        assertThat(server.openConnections()).isEqualTo(1);
    }

    @Test
    void rejectsARequestOverTheClientsFrameLimitWithoutSendingIt() {
        RpcException tooBig = failure(client.call(server.localAddress(),
                RpcMessage.ofPayload(ECHO, Unpooled.wrappedBuffer(new byte[5 << 20]))));
        assertThat(tooBig.code()).isEqualTo(ErrorCode.BAD_REQUEST);
        assertThat(handled.get()).isZero();
    }

    @Test
    void closesTheConnectionWhenAnAnswerExceedsTheClientsLimit() {
        RpcClient small = RpcClient.create(transport, new RpcClientConfig(64 << 10, 1, Duration.ofSeconds(2),
                Duration.ofSeconds(10), Duration.ofSeconds(1)));
        try {
            RpcException closed = failure(small.call(server.localAddress(), RpcMessage.empty(BIG_ANSWER)));
            assertThat(closed.code()).isEqualTo(ErrorCode.CONNECTION_CLOSED);
            // The server itself is unharmed.
            echoOnce();
        } finally {
            small.close();
        }
    }

    /** What the handler answers at once needs no worker: it comes back while the only one is blocked. */
    @Test
    void answersAtOnceOnTheEventLoopWhileTheWorkersAreBusy() throws Exception {
        server.close();
        AtomicReference<String> answeredOn = new AtomicReference<>();
        RpcHandler atOnce = new RpcHandler() {
            @Override
            public CompletableFuture<RpcMessage> handle(RpcMessage request) {
                return AbstractRpcTest.this.handle(request);
            }

            @Override
            public RpcMessage answerAtOnce(RpcMessage request) {
                if (request.op() != ECHO || request.header().readableBytes() == 0) {
                    return null;
                }
                answeredOn.set(Thread.currentThread().getName());
                return new RpcMessage(ECHO, request.header().retainedSlice(), request.payload().retainedSlice());
            }
        };
        server = RpcServer.start(transport, new RpcServerConfig(1 << 20, 1, 1, Duration.ofSeconds(5)),
                new InetSocketAddress("127.0.0.1", 0), atOnce);
        CompletableFuture<RpcMessage> running = client.call(server.localAddress(), RpcMessage.empty(BLOCK));
        awaitHandled(1);
        ByteBuf payload = randomBytes(new Random(3), 1000);
        RpcMessage echo = client.call(server.localAddress(), new RpcMessage(ECHO,
                Unpooled.wrappedBuffer(new byte[] {9}), payload.retainedSlice())).get(5, TimeUnit.SECONDS);
        try {
            assertThat(echo.payload()).isEqualTo(payload);
            assertThat(answeredOn.get()).startsWith("rpc-io");
        } finally {
            echo.close();
            payload.release();
        }
        // One it declines goes to the worker, behind the blocked request.
        CompletableFuture<RpcMessage> declined = client.call(server.localAddress(), RpcMessage.empty(ECHO));
        assertThat(declined).isNotDone();
        unblock.countDown();
        running.join().close();
        declined.get(5, TimeUnit.SECONDS).close();
        assertThat(handled.get()).as("the blocked request and the declined one: handled by workers").isEqualTo(2);
    }

    @Test
    void answersBusyWhenTheQueueIsFull() throws Exception {
        server.close();
        server = startServer(new RpcServerConfig(1 << 20, 1, 1, Duration.ofSeconds(5)));
        CompletableFuture<RpcMessage> running = client.call(server.localAddress(), RpcMessage.empty(BLOCK));
        awaitHandled(1);
        CompletableFuture<RpcMessage> queued = client.call(server.localAddress(), RpcMessage.empty(BLOCK));
        RpcException busy = null;
        for (int i = 0; i < 50 && busy == null; i++) {
            CompletableFuture<RpcMessage> extra = client.call(server.localAddress(), RpcMessage.empty(BLOCK));
            try {
                extra.get(100, TimeUnit.MILLISECONDS).close();
            } catch (Exception e) {
                busy = RpcException.from(e);
            }
        }
        assertThat(busy).isNotNull();
        assertThat(busy.code()).isEqualTo(ErrorCode.BUSY);
        unblock.countDown();
        running.join().close();
        queued.join().close();
    }

    @Test
    void failsUnreachablePeers() throws IOException {
        int closedPort = FreePorts.loopback();
        RpcException unreachable = failure(client.call(new InetSocketAddress("127.0.0.1", closedPort),
                RpcMessage.empty(ECHO)));
        assertThat(unreachable.code()).isEqualTo(ErrorCode.UNREACHABLE);
    }

    @Test
    void shutdownDrainsRequestsInFlightAndRefusesNewOnes() throws Exception {
        CompletableFuture<RpcMessage> slow = client.call(server.localAddress(), RpcMessage.empty(SLOW));
        awaitHandled(1);
        Thread closer = new Thread(server::close, "closer");
        closer.start();
        // The slow request was accepted before close(): it is answered, not dropped.
        try (RpcMessage answer = slow.get(10, TimeUnit.SECONDS)) {
            assertThat(answer.op()).isEqualTo(SLOW);
        }
        closer.join(10_000);
        assertThat(closer.isAlive()).isFalse();
        RpcException after = failure(client.call(server.localAddress(), RpcMessage.empty(ECHO)));
        assertThat(after.code()).isIn(ErrorCode.SHUTTING_DOWN, ErrorCode.CONNECTION_CLOSED, ErrorCode.UNREACHABLE);
    }

    @Test
    void reconnectsToARestartedServer() throws IOException {
        // Restarted on the same port, which must lie outside the ephemeral range: there any outgoing
        // connection (another test JVM's) may take it in the moment between the two servers.
        server.close();
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", FreePorts.loopback());
        server = RpcServer.start(transport, new RpcServerConfig(2 << 20, 4, 2000, Duration.ofSeconds(5)), address,
                this::handle);
        echoOnce();
        server.close();
        server = RpcServer.start(transport, new RpcServerConfig(2 << 20, 4, 2000, Duration.ofSeconds(5)), address,
                this::handle);
        // The first call may still meet the dead connection; a bounded number of retries must get through.
        boolean answered = false;
        for (int i = 0; i < 5 && !answered; i++) {
            try {
                client.call(address, RpcMessage.empty(ECHO)).join().close();
                answered = true;
            } catch (CompletionException e) {
                assertThat(RpcException.from(e).code()).isIn(ErrorCode.CONNECTION_CLOSED, ErrorCode.UNREACHABLE);
            }
        }
        assertThat(answered).isTrue();
    }

    private void echoOnce() {
        try (RpcMessage answer = call(RpcMessage.ofPayload(ECHO, Unpooled.wrappedBuffer(new byte[] {1, 2, 3})))) {
            assertThat(answer.payload().readableBytes()).isEqualTo(3);
        }
    }

    private void awaitHandled(int count) throws InterruptedException {
        for (int i = 0; i < 500 && handled.get() < count; i++) {
            Thread.sleep(10);
        }
        assertThat(handled.get()).isGreaterThanOrEqualTo(count);
    }

    /** A 20-byte frame prefix with the given fields, followed by zero bytes up to a full frame when small. */
    private static byte[] prefix(int length, int magic, int version, int headerLength) {
        ByteBuffer buf = ByteBuffer.allocate(20);
        buf.putInt(length).putShort((short) magic).put((byte) version).put((byte) 0).putLong(1).putShort((short) 1)
                .putShort((short) headerLength);
        return buf.array();
    }

    /** Sends raw bytes on a fresh connection; true when the server closes it within 5 s. */
    private boolean sendRawAndAwaitClose(byte[] bytes) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", server.localAddress().getPort())) {
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            out.write(bytes);
            out.flush();
            InputStream in = socket.getInputStream();
            try {
                while (true) {
                    if (in.read() == -1) {
                        return true;
                    }
                }
            } catch (SocketTimeoutException e) {
                return false;
            } catch (IOException reset) {
                return true;
            }
        }
    }
}
