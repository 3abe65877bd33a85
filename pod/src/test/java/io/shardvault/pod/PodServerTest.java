package io.shardvault.pod;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.config.Settings;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.common.rpc.RpcMessage;
import io.shardvault.common.rpc.RpcTransport;
import io.shardvault.common.rpc.RpcTransportConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(120)
class PodServerTest {
    private static final Logger LOG = LoggerFactory.getLogger(PodServerTest.class);

    @TempDir
    Path dir;
    private RpcTransport transport;
    private RpcClient rpc;
    private PodClient client;
    private PodServer pod;
    private SimpleMeterRegistry registry;
    private Random random;

    @BeforeEach
    void setUp() throws IOException {
        long seed = System.nanoTime();
        LOG.info("seed={}", seed);
        random = new Random(seed);
        transport = RpcTransport.create(RpcTransportConfig.defaults());
        rpc = RpcClient.create(transport, RpcClientConfig.defaults());
        client = new PodClient(rpc);
        registry = new SimpleMeterRegistry();
        pod = PodServer.start(transport, PodConfig.from(Settings.of(Map.of(
                "pod.name", "p0",
                "pod.stateDir", dir.resolve("state").toString(),
                "pod.tomes", dir.resolve("t0") + "," + dir.resolve("t1"),
                "pod.flush.interval", "10ms"))), rpc, registry);
    }

    @AfterEach
    void tearDown() {
        pod.close();
        rpc.close();
        transport.close();
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private void write(ShardId id, long offset, byte[] data, WriteMode mode) {
        client.write(pod.localAddress(), id, offset, Crc32c.of(data), mode, Unpooled.wrappedBuffer(data)).join();
    }

    private byte[] read(ShardId id, long offset, int length) {
        ByteBuf b = client.read(pod.localAddress(), id, offset, length).join();
        try {
            return ByteBufUtil.getBytes(b);
        } finally {
            b.release();
        }
    }

    private static ErrorCode codeOf(CompletableFuture<?> f) {
        try {
            f.join();
        } catch (CompletionException e) {
            return RpcException.from(e).code();
        }
        throw new AssertionError("expected a failure");
    }

    @Test
    void writesInBothModesReadBackAndAreFlushed() throws Exception {
        ShardId a = new ShardId(4, 100, 7);
        ShardId b = new ShardId(4, 101, 7);
        byte[] a0 = bytes(16 << 10);
        byte[] a1 = bytes(16 << 10);
        byte[] b0 = bytes(64 << 10);
        write(a, 0, a0, WriteMode.BUFFERED);
        write(a, a0.length, a1, WriteMode.BUFFERED);
        write(b, 0, b0, WriteMode.DURABLE);
        assertThat(read(a, 0, a0.length)).isEqualTo(a0);
        assertThat(read(a, a0.length - 10, 20)).isEqualTo(concat(slice(a0, a0.length - 10, 10), slice(a1, 0, 10)));
        assertThat(read(b, 0, b0.length)).isEqualTo(b0);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (client.stats(pod.localAddress()).join().unflushedBytes() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        PodStats stats = client.stats(pod.localAddress()).join();
        assertThat(stats.unflushedBytes()).isZero();
        assertThat(stats.unflushedShards()).isZero();
        assertThat(stats.tomes()).isEqualTo(2);
        assertThat(stats.usableBytes()).isPositive();
        assertThat(registry.get("shardvault.pod.flush.shards").counter().count()).isGreaterThanOrEqualTo(1.0);
        assertThat(registry.get("shardvault.pod.flush.latency").timer().count()).isPositive();
        assertThat(registry.get("shardvault.pod.unflushed.bytes").gauge().value()).isZero();
        assertThat(registry.get("shardvault.pod.write.latency").tag("mode", "durable").timer().count()).isEqualTo(1);
    }

    @Test
    void aChunkWithAWrongCrcIsRejectedOnWrite() {
        ShardId id = new ShardId(4, 1, 7);
        byte[] data = bytes(1000);
        CompletableFuture<Void> write = client.write(pod.localAddress(), id, 0, Crc32c.of(data) ^ 0x100,
                WriteMode.BUFFERED, Unpooled.wrappedBuffer(data));
        assertThat(codeOf(write)).isEqualTo(ErrorCode.CHECKSUM_MISMATCH);
        assertThat(codeOf(client.read(pod.localAddress(), id, 0, 1))).isEqualTo(ErrorCode.NOT_FOUND);
        assertThat(registry.get("shardvault.pod.crc.failures").tag("where", "write").counter().count()).isEqualTo(1.0);
    }

    @Test
    void aByteFlippedOnDiskIsReportedCorruptOnRead() throws IOException {
        ShardId id = new ShardId(4, 2, 7);
        byte[] data = bytes(4096);
        write(id, 0, data, WriteMode.DURABLE);
        Path file = pod.node().pathOf(id);
        long at = 32 + 28 + random.nextInt(data.length);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            ch.read(one, at);
            one.put(0, (byte) (one.get(0) ^ 1));
            one.rewind();
            ch.write(one, at);
        }
        assertThat(codeOf(client.read(pod.localAddress(), id, 0, data.length))).isEqualTo(ErrorCode.CORRUPT);
        assertThat(codeOf(client.read(pod.localAddress(), id, 100, 1))).isEqualTo(ErrorCode.CORRUPT);
        assertThat(registry.get("shardvault.pod.crc.failures").tag("where", "read").counter().count()).isEqualTo(2.0);
    }

    @Test
    void deletesAreIdempotentAndTheListingPagesInKeyOrder() {
        List<ShardId> ids = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            ShardId id = new ShardId(i % 2, 1000 - i, 7);
            write(id, 0, bytes(10), WriteMode.BUFFERED);
            ids.add(id);
        }
        assertThat(client.delete(pod.localAddress(), ids.get(0)).join()).isTrue();
        assertThat(client.delete(pod.localAddress(), ids.get(0)).join()).isFalse();
        List<ShardId> expected = new ArrayList<>(ids.subList(1, ids.size()));
        expected.sort(ShardId.KEY_ORDER);
        List<ShardId> seen = new ArrayList<>();
        Optional<ShardId> after = Optional.empty();
        for (int page = 0; page < 10; page++) {
            PodPage p = client.list(pod.localAddress(), after, 10).join();
            seen.addAll(p.ids());
            if (p.next().isEmpty()) {
                break;
            }
            after = p.next();
        }
        assertThat(seen).containsExactlyElementsOf(expected);
        assertThat(codeOf(client.list(pod.localAddress(), Optional.empty(), 0))).isEqualTo(ErrorCode.BAD_REQUEST);
    }

    @Test
    void anUnknownOpIsAnsweredAsSuch() {
        CompletableFuture<RpcMessage> call = rpc.call(pod.localAddress(), RpcMessage.empty(0x02FF));
        assertThat(codeOf(call)).isEqualTo(ErrorCode.UNKNOWN_OP);
    }

    private static byte[] slice(byte[] b, int from, int n) {
        return java.util.Arrays.copyOfRange(b, from, from + n);
    }

    private static byte[] concat(byte[] x, byte[] y) {
        byte[] out = new byte[x.length + y.length];
        System.arraycopy(x, 0, out, 0, x.length);
        System.arraycopy(y, 0, out, x.length, y.length);
        return out;
    }
}
