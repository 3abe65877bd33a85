package io.shardvault.common.erasure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * Single-thread encode and decode throughput of both engines, against the plain-C Jerasure program
 * {@code jmh/native/jerasure_bench.c} (run both with {@code jmh/run-erasure-bench.sh}, which turns the
 * op/s here into GB/s of data, k x chunkLength bytes per op, and prints ratios).
 *
 * <p>Working set: a ring of {@code max(2, floor(1 MiB / ((k + m) x chunkLength)))} stripes, rotated
 * per operation, the same formula as the C program: 3 stripes (under 1 MiB, L2-resident on a core with
 * 1 MiB of L2) for 256 KiB stripes; 2 stripes (2.5 MiB, L3-resident; one 1 MiB stripe alone exceeds
 * L2) for 1 MiB stripes. Decode loses data chunks 0..min(4, m)-1 (four for 16+4 and 15+5, three for
 * 17+3, whose m is 3) and rebuilds them from the next k chunks. 15+5 is not in the list but is a
 * production layout, and the only one here whose Java engine takes its 8-row (long table) path.
 *
 * <p>Besides JMH's wall-clock score, each measurement iteration's throughput per CPU second of the
 * benchmark thread is appended to the file named by {@value #CPU_OUT_PROPERTY} (when set): on a
 * machine shared with other work it is far steadier, and the C program reports the same figure.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ErasureCodecBenchmark {

    /** System property naming the file that per-iteration CPU-time throughputs are appended to. */
    public static final String CPU_OUT_PROPERTY = "erasure.bench.cpuOut";

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** Same bound as the C program's ring formula. */
    static final int L2_BYTES = 1 << 20;

    @Param({"16+4", "17+3", "15+5"})
    public String layout;

    @Param({"1048576", "262144"})
    public int stripeBytes;

    @Param({"jerasure4j", "java"})
    public String engine;

    private ErasureCodec codec;
    private int chunkLength;
    private ByteBuffer[][] data;
    private ByteBuffer[][] parity;
    private ByteBuffer[][] decodeChunks;
    private boolean[] present;
    private int next;
    private long ops;
    private long cpuStartNanos;

    @Setup(Level.Trial)
    public void setUp() {
        ErasureLayout l = ErasureLayout.parse(layout);
        ErasureConfig.Engine choice = engine.equals("java") ? ErasureConfig.Engine.JAVA : ErasureConfig.Engine.NATIVE;
        codec = ErasureCodecs.create(ErasureConfig.defaults().withCodec(choice)).codec(l);
        chunkLength = l.chunkLength(stripeBytes);
        int ring = (int) Math.max(2, L2_BYTES / ((long) l.n() * chunkLength));
        data = new ByteBuffer[ring][];
        parity = new ByteBuffer[ring][];
        decodeChunks = new ByteBuffer[ring][];
        int lost = Math.min(4, l.m());
        present = new boolean[l.n()];
        for (int i = lost; i < l.n(); i++) {
            present[i] = true;
        }
        long seed = 0x5EED;
        for (int r = 0; r < ring; r++) {
            ByteBuffer[] chunks = AlignedBuffers.allocateChunks(l.n(), chunkLength);
            for (int i = 0; i < l.k(); i++) {
                ByteBuffer c = chunks[i];
                for (int b = 0; b < chunkLength; b++) {
                    seed = seed * 6364136223846793005L + 1442695040888963407L;
                    c.put(b, (byte) (seed >>> 56));
                }
            }
            data[r] = Arrays.copyOf(chunks, l.k());
            parity[r] = Arrays.copyOfRange(chunks, l.k(), l.n());
            codec.encode(data[r], parity[r], chunkLength);
            // Decode writes into the lost data chunks' own buffers (they hold the right bytes already,
            // which changes nothing for throughput).
            decodeChunks[r] = chunks;
        }
    }

    @Setup(Level.Iteration)
    public void startCpuClock() {
        ops = 0;
        cpuStartNanos = THREADS.getCurrentThreadCpuTime();
    }

    @TearDown(Level.Iteration)
    public void recordCpuRate(BenchmarkParams benchmark, IterationParams iteration) {
        long cpuNanos = THREADS.getCurrentThreadCpuTime() - cpuStartNanos;
        String out = System.getProperty(CPU_OUT_PROPERTY);
        if (out == null || iteration.getType() != IterationType.MEASUREMENT || cpuNanos <= 0) {
            return;
        }
        String op = benchmark.getBenchmark().substring(benchmark.getBenchmark().lastIndexOf('.') + 1);
        double gbPerCpuSecond = (double) ops * ErasureLayout.parse(layout).k() * chunkLength / cpuNanos;
        String line = String.format(Locale.ROOT, "jmh %s %s %d %s %.3f%n", op, layout, stripeBytes, engine,
                gbPerCpuSecond);
        try {
            Files.writeString(Path.of(out), line, StandardCharsets.US_ASCII, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Benchmark
    public ByteBuffer encode() {
        int r = next;
        next = r + 1 == data.length ? 0 : r + 1;
        codec.encode(data[r], parity[r], chunkLength);
        ops++;
        return parity[r][0];
    }

    @Benchmark
    public ByteBuffer decode() {
        int r = next;
        next = r + 1 == data.length ? 0 : r + 1;
        codec.decode(decodeChunks[r], present, chunkLength);
        ops++;
        return decodeChunks[r][0];
    }
}
