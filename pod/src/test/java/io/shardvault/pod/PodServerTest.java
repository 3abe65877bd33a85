package io.shardvault.pod;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.fs.CachedRead;
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
import io.shardvault.pod.api.AgedShard;
import io.shardvault.pod.api.PodAgedPage;
import io.shardvault.pod.api.PodAssignment;
import io.shardvault.pod.api.PodClient;
import io.shardvault.pod.api.PodPage;
import io.shardvault.pod.api.PodSlot;
import io.shardvault.pod.api.PodStats;
import io.shardvault.pod.api.WriteMode;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
        pod = PodServer.start(transport, config("10ms"), rpc, registry);
        client.assign(pod.localAddress(), ASSIGNED).join();
    }

    /** Slots 0:7, 1:7 and 4:7, and a stash server that does not listen (purges wait for it). */
    private static final PodAssignment ASSIGNED = new PodAssignment(
            List.of(new PodSlot(4, 7), new PodSlot(0, 7), new PodSlot(1, 7)), List.of(stashAt(1)));

    private static InetSocketAddress stashAt(int port) {
        return new InetSocketAddress("127.0.0.1", port);
    }

    private PodConfig config(String flushInterval) {
        return PodConfig.from(Settings.of(Map.of(
                "pod.name", "p0",
                "pod.stateDir", dir.resolve("state").toString(),
                "pod.tomes", dir.resolve("t0") + "," + dir.resolve("t1"),
                "pod.flush.interval", flushInterval)));
    }

    /** Restarts the pod (cleanly) with {@code config}; it keeps what it persisted. */
    private void restart(PodConfig config) throws IOException {
        pod.close();
        pod = PodServer.start(transport, config, rpc, registry);
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
    void anUnassignedPodRefusesBufferedWritesAsNotRecoverableAndTakesDurableOnes() throws IOException {
        pod.close();
        Files.delete(dir.resolve("state").resolve("assignment"));
        pod = PodServer.start(transport, config("10ms"), rpc, registry);
        assertThat(client.stats(pod.localAddress()).join().assignment()).isEqualTo(PodAssignment.UNASSIGNED);
        ShardId id = new ShardId(4, 300, 7);
        byte[] data = bytes(1000);
        assertThat(codeOf(client.write(pod.localAddress(), id, 0, Crc32c.of(data), WriteMode.BUFFERED,
                Unpooled.wrappedBuffer(data)))).isEqualTo(ErrorCode.NOT_RECOVERABLE);
        assertThat(codeOf(client.read(pod.localAddress(), id, 0, 1))).as("nothing stored").isEqualTo(ErrorCode.NOT_FOUND);
        write(id, 0, data, WriteMode.DURABLE);
        assertThat(read(id, 0, data.length)).isEqualTo(data);
        assertThat(registry.get("shardvault.pod.write.refused.buffered").counter().count()).isEqualTo(1.0);
    }

    @Test
    void aBufferedWriteOfASlotNotAssignedIsRefused() {
        byte[] data = bytes(100);
        assertThat(codeOf(client.write(pod.localAddress(), new ShardId(4, 1, 8), 0, Crc32c.of(data),
                WriteMode.BUFFERED, Unpooled.wrappedBuffer(data)))).isEqualTo(ErrorCode.NOT_RECOVERABLE);
        assertThat(codeOf(client.write(pod.localAddress(), new ShardId(5, 1, 7), 0, Crc32c.of(data),
                WriteMode.BUFFERED, Unpooled.wrappedBuffer(data)))).isEqualTo(ErrorCode.NOT_RECOVERABLE);
    }

    @Test
    void anAssignmentSurvivesARestartAndStatsReportItsFingerprint() throws IOException {
        assertThat(client.stats(pod.localAddress()).join().assignment()).isEqualTo(ASSIGNED.fingerprint());
        restart(config("10ms"));
        assertThat(pod.assignment()).contains(ASSIGNED);
        assertThat(client.stats(pod.localAddress()).join().assignment()).isEqualTo(ASSIGNED.fingerprint());
        // Buffered writes are taken again at once, before any coordinator re-sends it.
        write(new ShardId(4, 400, 7), 0, bytes(100), WriteMode.BUFFERED);
    }

    @Test
    void aDamagedAssignmentFileStopsTheStartRatherThanRecoverFromTheWrongStash() throws IOException {
        pod.close();
        Path file = dir.resolve("state").resolve("assignment");
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length - 6] ^= 1;
        Files.write(file, bytes);
        assertThatThrownBy(() -> PodServer.start(transport, config("10ms"), rpc, registry))
                .isInstanceOf(IOException.class).hasMessageContaining("damaged");
        Files.delete(file); // the operator's way out; tearDown closes a running pod
        pod = PodServer.start(transport, config("10ms"), rpc, registry);
    }

    @Test
    void aStashChangeIsRefusedWhileShardsAreUnflushedOrPurgesUndeliveredAndTheSameAssignmentIsANoOp()
            throws Exception {
        restart(config("10m")); // nothing is flushed until the close
        write(new ShardId(4, 500, 7), 0, bytes(100), WriteMode.BUFFERED);
        Path file = dir.resolve("state").resolve("assignment");
        java.nio.file.attribute.FileTime before = Files.getLastModifiedTime(file);
        Thread.sleep(20);
        client.assign(pod.localAddress(), ASSIGNED).join(); // the same again: nothing changes
        assertThat(Files.getLastModifiedTime(file)).isEqualTo(before);

        PodAssignment moved = new PodAssignment(ASSIGNED.slots(), List.of(stashAt(2)));
        CompletableFuture<Void> refused = client.assign(pod.localAddress(), moved);
        assertThat(codeOf(refused)).isEqualTo(ErrorCode.CONFLICT);
        assertThatThrownBy(refused::join).hasMessageContaining("unflushed");
        PodAssignment fewerSlots = new PodAssignment(List.of(new PodSlot(4, 7)), ASSIGNED.stashServers());
        assertThat(codeOf(client.assign(pod.localAddress(), fewerSlots))).isEqualTo(ErrorCode.CONFLICT);
        // Another slot on the same stash is fine: nothing that depends on the current one moves.
        PodAssignment more = new PodAssignment(List.of(new PodSlot(4, 7), new PodSlot(0, 7), new PodSlot(1, 7),
                new PodSlot(2, 7)), List.of(stashAt(1)));
        client.assign(pod.localAddress(), more).join();

        // Flushed at the close, but the purges cannot reach the stash: still refused after a restart.
        restart(config("10m"));
        assertThat(pod.node().purgeQueueDepth()).isPositive();
        assertThat(codeOf(client.assign(pod.localAddress(), moved))).isEqualTo(ErrorCode.CONFLICT);
        assertThat(pod.assignment()).contains(more);
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

    /**
     * A shard just written is open in the pod's cache and its bytes in memory: its reads are answered on the event
     * loop. A shard with no open file goes to a worker, which answers the error.
     */
    @Test
    void readsOfAnOpenFileWhoseBytesAreInMemoryAreAnsweredOnTheEventLoop() {
        assumeTrue(CachedRead.unavailableBecause() == null, CachedRead.unavailableBecause());
        ShardId id = new ShardId(4, 3, 7);
        byte[] data = bytes(20_000);
        write(id, 0, data, WriteMode.BUFFERED);
        assertThat(read(id, 0, data.length)).isEqualTo(data);
        assertThat(read(id, 5_000, 100)).isEqualTo(slice(data, 5_000, 100));
        assertThat(codeOf(client.read(pod.localAddress(), new ShardId(4, 4, 7), 0, 1)))
                .isEqualTo(ErrorCode.NOT_FOUND);
        assertThat(registry.get("shardvault.pod.reads").tag("path", "event-loop").counter().count()).isEqualTo(2.0);
        assertThat(registry.get("shardvault.pod.reads").tag("path", "worker").counter().count()).isEqualTo(1.0);
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
    void theAgedListingPagesAsTheListingDoesAndAgesEachShardByItsFileTime() throws IOException {
        List<ShardId> ids = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            ShardId id = new ShardId(1, 500 + i, 7);
            write(id, 0, bytes(10), WriteMode.DURABLE);
            ids.add(id);
        }
        // Two shards written "long ago": their files' times set back by an hour and by a day.
        java.nio.file.Files.setLastModifiedTime(pod.node().pathOf(ids.get(3)),
                java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 3_600_000L));
        java.nio.file.Files.setLastModifiedTime(pod.node().pathOf(ids.get(9)),
                java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 86_400_000L));
        List<AgedShard> seen = new ArrayList<>();
        Optional<ShardId> after = Optional.empty();
        for (int page = 0; page < 10; page++) {
            PodAgedPage p = client.listAged(pod.localAddress(), after, 5).join();
            seen.addAll(p.shards());
            if (p.next().isEmpty()) {
                break;
            }
            after = p.next();
        }
        assertThat(seen).extracting(AgedShard::id).containsExactlyElementsOf(ids);
        assertThat(seen.get(3).ageMillis()).isBetween(3_600_000L, 3_600_000L + 600_000L);
        assertThat(seen.get(9).ageMillis()).isBetween(86_400_000L, 86_400_000L + 600_000L);
        assertThat(seen.get(0).ageMillis()).isLessThan(600_000L);
        assertThat(codeOf(client.listAged(pod.localAddress(), Optional.empty(), 0))).isEqualTo(ErrorCode.BAD_REQUEST);
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
