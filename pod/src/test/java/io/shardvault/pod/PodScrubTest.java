package io.shardvault.pod;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ShardId;
import io.shardvault.common.config.Settings;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.common.rpc.RpcTransport;
import io.shardvault.common.rpc.RpcTransportConfig;
import io.shardvault.pod.api.PodClient;
import io.shardvault.pod.api.ScrubFinding;
import io.shardvault.pod.api.WriteMode;
import io.shardvault.pod.internal.ScrubTesting;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scrubber over a real pod (real files on two tomes, the RPC server, SCRUB_FINDINGS through the
 * client): damage found once each, held until acknowledged, and a position that survives restarts.
 * The background lane is off here ({@code pod.scrub.bytesPerSecond = 0}); passes run through the
 * test hook, so what a pass saw is exact.
 */
@Timeout(120)
class PodScrubTest {
    private static final Logger LOG = LoggerFactory.getLogger(PodScrubTest.class);
    private static final int CHUNK = 16 << 10;
    private static final int FILES = 40;

    @TempDir
    Path dir;
    private RpcTransport transport;
    private RpcClient rpc;
    private PodClient client;
    private PodServer pod;
    private SimpleMeterRegistry registry;
    private Random random;
    /** Every shard written, each with 1..3 chunks. */
    private final List<ShardId> shards = new ArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        long seed = Long.getLong("test.seed", System.nanoTime());
        LOG.info("seed {} (rerun with -Dtest.seed={})", seed, seed);
        random = new Random(seed);
        transport = RpcTransport.create(RpcTransportConfig.defaults());
        rpc = RpcClient.create(transport, RpcClientConfig.defaults());
        client = new PodClient(rpc);
        registry = new SimpleMeterRegistry();
        pod = PodServer.start(transport, config(), rpc, registry);
        for (int i = 0; i < FILES; i++) {
            ShardId id = new ShardId(1 + i % 2, 5000 + i * 7919L, 3);
            int chunks = 1 + random.nextInt(3);
            for (int c = 0; c < chunks; c++) {
                byte[] data = new byte[c == chunks - 1 ? 1 + random.nextInt(CHUNK) : CHUNK];
                random.nextBytes(data);
                client.write(pod.localAddress(), id, (long) c * CHUNK, Crc32c.of(data), WriteMode.DURABLE,
                        Unpooled.wrappedBuffer(data)).join();
            }
            shards.add(id);
        }
    }

    private PodConfig config() {
        return PodConfig.from(Settings.of(Map.of(
                "pod.name", "scrubbed",
                "pod.stateDir", dir.resolve("state").toString(),
                "pod.tomes", dir.resolve("t0") + "," + dir.resolve("t1"),
                "pod.scrub.bytesPerSecond", "0")));
    }

    @AfterEach
    void tearDown() {
        pod.close();
        rpc.close();
        transport.close();
    }

    @Test
    void flippedAndTruncatedShardFilesAreFoundOnceEachAndHeldUntilAcknowledged() throws Exception {
        Map<ShardId, ScrubFinding.Kind> damaged = damage();
        ScrubTesting.runPassNow(pod.node());

        List<ScrubFinding> found = client.scrubFindings(pod.localAddress(), 0, 1000).join();
        assertThat(kinds(found)).containsExactlyInAnyOrderEntriesOf(damaged);
        assertThat(found).extracting(ScrubFinding::seq).doesNotHaveDuplicates().isSorted();
        assertThat(ScrubTesting.lastPassFiles(pod.node())).isEqualTo(FILES);
        assertThat(registry.get("shardvault.pod.scrub.pass.last.found").tag("kind", "corrupt").gauge().value())
                .isEqualTo(damaged.values().stream().filter(k -> k == ScrubFinding.Kind.CORRUPT).count());
        assertThat(registry.get("shardvault.pod.scrub.pass.last.end").gauge().value()).isPositive();

        // A second pass finds the same damage: still held once each, nothing new.
        ScrubTesting.runPassNow(pod.node());
        assertThat(client.scrubFindings(pod.localAddress(), 0, 1000).join()).isEqualTo(found);
        assertThat(registry.get("shardvault.pod.scrub.found").tag("kind", "corrupt").counter().count()
                + registry.get("shardvault.pod.scrub.found").tag("kind", "missing").counter().count())
                .isEqualTo(damaged.size());

        // Acknowledged ones go, durably; the rest survive a restart.
        long ack = found.get(3).seq();
        List<ScrubFinding> rest = client.scrubFindings(pod.localAddress(), ack, 1000).join();
        assertThat(rest).isEqualTo(found.subList(4, found.size()));
        pod.close();
        pod = PodServer.start(transport, config(), rpc, registry);
        assertThat(client.scrubFindings(pod.localAddress(), 0, 2).join()).isEqualTo(rest.subList(0, 2));
        assertThat(client.scrubFindings(pod.localAddress(), 0, 1000).join()).isEqualTo(rest);
        assertThat(ScrubTesting.pass(pod.node())).isEqualTo(2);

        // Everything acknowledged: the damage is still there, so the next pass reports it anew.
        assertThat(client.scrubFindings(pod.localAddress(), rest.get(rest.size() - 1).seq(), 1000).join()).isEmpty();
        ScrubTesting.runPassNow(pod.node());
        List<ScrubFinding> again = client.scrubFindings(pod.localAddress(), 0, 1000).join();
        assertThat(kinds(again)).containsExactlyInAnyOrderEntriesOf(damaged);
        assertThat(again.get(0).seq()).isGreaterThan(rest.get(rest.size() - 1).seq());
    }

    @Test
    void aPassResumesWhereItWasAfterARestartAndAFindingWhosePositionWasLostIsNotHeldTwice() throws Exception {
        Map<ShardId, ScrubFinding.Kind> damaged = damage();
        // Part of a pass: a start step, then steps of the first files (each: open, chunks, verdict).
        ScrubTesting.step(pod.node(), 40);
        assertThat(ScrubTesting.inPass(pod.node())).isTrue();
        ShardId reached = ScrubTesting.after(pod.node()).orElseThrow();

        pod.close();
        pod = PodServer.start(transport, config(), rpc, registry);
        assertThat(ScrubTesting.inPass(pod.node())).isTrue();
        assertThat(ScrubTesting.pass(pod.node())).isEqualTo(1);
        assertThat(ScrubTesting.after(pod.node())).contains(reached);
        List<ScrubFinding> before = client.scrubFindings(pod.localAddress(), 0, 1000).join();

        // A crash that kept the findings but not the position (it is persisted less often): the pass
        // starts over, checks the same damaged files again, and holds each once.
        pod.close();
        Files.delete(dir.resolve("state").resolve(ScrubTesting.positionFileName()));
        pod = PodServer.start(transport, config(), rpc, registry);
        assertThat(ScrubTesting.pass(pod.node())).isZero();
        ScrubTesting.runPassNow(pod.node());
        List<ScrubFinding> found = client.scrubFindings(pod.localAddress(), 0, 1000).join();
        assertThat(kinds(found)).containsExactlyInAnyOrderEntriesOf(damaged);
        assertThat(found).containsAll(before);
        assertThat(ScrubTesting.lastPassFiles(pod.node())).isEqualTo(FILES);
    }

    /**
     * Flips a data byte in several files, a header byte in one, and cuts two short inside their last
     * chunk; returns what a scrub must find.
     */
    private Map<ShardId, ScrubFinding.Kind> damage() throws IOException {
        Map<ShardId, ScrubFinding.Kind> damaged = new HashMap<>();
        List<ShardId> order = new ArrayList<>(shards);
        Collections.shuffle(order, random);
        for (int i = 0; i < 7; i++) {
            // Inside the first chunk's data (a flip in a later record's header would cut the file short).
            Path file = pod.node().pathOf(order.get(i));
            long dataStart = 32 + 28;
            flip(file, dataStart + random.nextInt((int) Math.min(CHUNK, Files.size(file) - dataStart)));
            damaged.put(order.get(i), ScrubFinding.Kind.CORRUPT);
        }
        flip(pod.node().pathOf(order.get(7)), 10);
        damaged.put(order.get(7), ScrubFinding.Kind.CORRUPT);
        for (int i = 8; i < 10; i++) {
            Path file = pod.node().pathOf(order.get(i));
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ch.truncate(ch.size() - 1);
                ch.force(true);
            }
            damaged.put(order.get(i), ScrubFinding.Kind.MISSING);
        }
        return damaged;
    }

    /** Flips one byte, durably. */
    private static void flip(Path file, long at) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            ch.read(one, at);
            one.flip();
            one.put(0, (byte) (one.get(0) ^ 0x5a));
            ch.write(one, at);
            ch.force(true);
        }
    }

    private static TreeMap<ShardId, ScrubFinding.Kind> kinds(List<ScrubFinding> findings) {
        TreeMap<ShardId, ScrubFinding.Kind> out = new TreeMap<>(ShardId.KEY_ORDER);
        for (ScrubFinding f : findings) {
            assertThat(out.put(f.id(), f.kind())).as("one finding per shard").isNull();
        }
        return out;
    }
}
