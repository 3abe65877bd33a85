package io.shardvault.pod;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ShardId;
import io.shardvault.common.config.Settings;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.common.rpc.RpcTransport;
import io.shardvault.common.rpc.RpcTransportConfig;
import io.shardvault.pod.api.PodClient;
import io.shardvault.pod.api.WriteMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The flusher's throughput on the SIMULATED 7,200 RPM disk (a model: each fsync waits a uniform
 * 0–8.33 ms plus its bytes at 261 MB/s, one at a time per tome). Two threads keep a one-tome pod
 * saturated with buffered writes of new shards; the auxiliary counter {@code flushedShards} is the
 * flusher's rate in shards per second (the primary score is the write rate, which outruns it).
 *
 * <p>Run: {@code java -jar jmh/target/benchmarks.jar PodFlusherBenchmark}
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 3)
@Measurement(iterations = 3, time = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
@Threads(2)
public class PodFlusherBenchmark {

    /** The flusher's rate on the simulated disk, in shards per second. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class FlushCounters {
        public long flushedShards;

        @Setup(Level.Iteration)
        public void reset() {
            flushedShards = 0;
        }
    }

    /** A pod on one simulated tome, written to as fast as buffered writes go. */
    @State(Scope.Benchmark)
    public static class SaturatedPod {
        @Param({"16384"})
        public int flushChunkBytes;

        /** The real disk too, to separate the model's cost from this machine's own fsync time. */
        @Param({"simulated-hdd", "real"})
        public String flushDisk;

        Path dir;
        RpcTransport transport;
        RpcClient rpc;
        PodClient client;
        PodServer pod;
        Counter flushed;
        ByteBuf chunk;
        int crc;
        final java.util.concurrent.atomic.AtomicLong nextFile = new java.util.concurrent.atomic.AtomicLong();
        /** Flushed shards already attributed to some thread's counter. */
        final java.util.concurrent.atomic.AtomicLong claimed = new java.util.concurrent.atomic.AtomicLong();

        @Setup(Level.Trial)
        public void setUp() throws IOException {
            dir = Files.createTempDirectory(Path.of(System.getProperty("bench.dir", "target")), "pod-flush");
            transport = RpcTransport.create(RpcTransportConfig.defaults());
            rpc = RpcClient.create(transport, RpcClientConfig.defaults());
            client = new PodClient(rpc);
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            Map<String, Object> settings = PodWriteBenchmark.podSettings(dir, "simulated-hdd".equals(flushDisk), "50ms");
            // Small batches, so the counter (bumped per finished batch) moves smoothly within an iteration.
            settings.put("pod.flush.batchShards", "64");
            pod = PodServer.start(transport, PodConfig.from(Settings.of(settings)), rpc, registry);
            flushed = registry.get("shardvault.pod.flush.shards").counter();
            byte[] data = new byte[flushChunkBytes];
            new Random(flushChunkBytes).nextBytes(data);
            chunk = Unpooled.unreleasableBuffer(Unpooled.directBuffer(flushChunkBytes).writeBytes(data));
            crc = Crc32c.of(data);
        }

        @Setup(Level.Iteration)
        public void mark() {
            claimed.set((long) flushed.count());
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            pod.close();
            rpc.close();
            transport.close();
            PodWriteBenchmark.deleteTree(dir);
        }
    }

    @Benchmark
    public Void flusherOnSimulatedDisk(SaturatedPod p, FlushCounters counters) {
        ShardId id = new ShardId(1, p.nextFile.getAndIncrement(), 0);
        Void done = p.client.write(p.pod.localAddress(), id, 0, p.crc, WriteMode.BUFFERED, p.chunk.duplicate())
                .join();
        long total = (long) p.flushed.count();
        long before = p.claimed.getAndAccumulate(total, Math::max);
        if (total > before) {
            counters.flushedShards += total - before;
        }
        return done;
    }
}
