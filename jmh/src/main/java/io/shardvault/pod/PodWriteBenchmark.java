package io.shardvault.pod;

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
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Write latency of one chunk through a real pod over loopback RPC, buffered vs durable, on the
 * real disk and on the SIMULATED 7,200 RPM disk ({@code disk=simulated-hdd}: each fsync waits a
 * uniform 0–8.33 ms plus its bytes at 261 MB/s; a model, not a measurement of a drive). Every
 * invocation writes a new shard (a new file), as the small-file path does.
 * The flusher's throughput is {@link PodFlusherBenchmark}.
 *
 * <p>Run: {@code java -jar jmh/target/benchmarks.jar PodWriteBenchmark -prof gc}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class PodWriteBenchmark {

    @Param({"16384", "65536"})
    public int chunkBytes;

    @Param({"BUFFERED", "DURABLE"})
    public WriteMode mode;

    @Param({"real", "simulated-hdd"})
    public String disk;

    private Path dir;
    private RpcTransport transport;
    private RpcClient rpc;
    private PodClient client;
    private PodServer pod;
    private SimpleMeterRegistry registry;
    private ByteBuf chunk;
    private int crc;
    private long nextFile;

    /** One tome, simulated or real; a high unflushed limit so buffered writes never turn durable. */
    static Map<String, Object> podSettings(Path dir, boolean simulated, String flushInterval) {
        Map<String, Object> s = new HashMap<>();
        s.put("pod.name", "bench");
        s.put("pod.stateDir", dir.resolve("state").toString());
        s.put("pod.tomes", dir.resolve("t0").toString());
        s.put("pod.simulatedHdd.tomes", simulated ? "all" : "none");
        s.put("pod.flush.interval", flushInterval);
        s.put("pod.flush.maxUnflushedBytes", "4g");
        return s;
    }

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory(Path.of(System.getProperty("bench.dir", "target")), "pod-bench");
        transport = RpcTransport.create(RpcTransportConfig.defaults());
        rpc = RpcClient.create(transport, RpcClientConfig.defaults());
        client = new PodClient(rpc);
        registry = new SimpleMeterRegistry();
        pod = PodServer.start(transport, PodConfig.from(Settings.of(podSettings(dir, "simulated-hdd".equals(disk),
                "50ms"))), rpc, registry);
        byte[] data = new byte[chunkBytes];
        new Random(chunkBytes).nextBytes(data);
        chunk = Unpooled.unreleasableBuffer(Unpooled.directBuffer(chunkBytes).writeBytes(data));
        crc = Crc32c.of(data);
    }

    @Benchmark
    public Void writeChunk() {
        ShardId id = new ShardId(1, nextFile++, 0);
        return client.write(pod.localAddress(), id, 0, crc, mode, chunk.duplicate()).join();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        pod.close();
        rpc.close();
        transport.close();
        deleteTree(dir);
    }

    public static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
