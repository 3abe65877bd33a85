package io.shardvault.stash;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Timer;
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
import io.shardvault.stash.api.StashClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A load tool for stash PUTs: latency (p50, p99) and throughput for each chunk size and number of
 * concurrent writers, next to the physical floor measured in the same run on the same directory:
 * a loop that appends one chunk to a file and fdatasyncs it ({@code FileChannel.force(false)}).
 * Also in the same run, for each writer count {@code W > 1}, the <b>ceiling</b> of group commit on
 * this disk: a loop that overwrites {@code W} chunks in place in a file written beforehand (no size
 * change, no block allocation: the cheapest synced write the file system offers) and fdatasyncs
 * once. No group commit of {@code W} closed-loop writers can sync more chunks per second than
 * that, whatever it does in software; if {@code ceiling ops/s < 10 x 1-writer ops/s}, the
 * throughput goal is out of reach on this disk.
 *
 * <p>For each chunk size, the phases (raw loop, ceilings, then each writer count) run in short
 * slices of {@code --seconds}, interleaved, {@code --rounds} times, and each phase's slices are
 * pooled: on a machine shared with other work, every phase then sees the same mix of quiet and
 * busy moments, and the ratios compare like with like. Before each slice the tool waits until the
 * process has stopped writing to disk, so no phase inherits the previous one's RocksDB flushes.
 *
 * <p>Before measuring, the tool writes {@code --warmup-mib} of PUTs (purged as they go), enough
 * for RocksDB to switch, retire and start recycling WAL files as a stash that has run for a while
 * does (with the default 2 x 512 MiB memtables and 2 GiB WAL limit, after about 2.1 GiB).
 *
 * <p>Each writer is a closed loop: it sends a PUT, waits for the acknowledgement, sends the next.
 * The server and client run in this JVM and talk over loopback TCP, so latencies include the RPC.
 * A purger deletes acknowledged entries about a second after they were written, as pods do, so
 * the stash stays small and its memtables see the real write-then-delete pattern.
 *
 * <pre>
 *  java -Xmx2g -cp jmh/target/benchmarks.jar io.shardvault.stash.StashPutLoad \
 *       [--dir DIR] [--seconds 1] [--rounds 10] [--sizes 16384,65536] [--writers 1,16,64] [--warmup-mib 3072]
 *       [--set stash.key=value ...]
 * </pre>
 * Not a JMH benchmark: JMH measures one operation per thread, while this needs many outstanding
 * asynchronous requests and a raw-fsync baseline in the same process and run.
 */
public final class StashPutLoad {
    private StashPutLoad() {
    }

    /** The committer's timers, printed per slice as means: where a PUT's server-side time goes. */
    private static final String[] BREAKDOWN = {"shardvault.stash.commit.queue", "shardvault.stash.commit.write",
        "shardvault.stash.commit.sync"};

    /** Latencies of one measured phase. */
    record Result(String name, int size, int writers, long ops, double seconds, long p50Nanos, long p99Nanos,
                  long[] latencies) {
        double opsPerSecond() {
            return ops / seconds;
        }
    }

    public static void main(String[] args) throws Exception {
        Path dir = null;
        int seconds = 1;
        int rounds = 10;
        int[] sizes = {16 << 10, 64 << 10};
        int[] writerCounts = {1, 16, 64};
        long warmupBytes = 3072L << 20;
        List<String> settings = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--dir" -> dir = Path.of(args[++i]);
                case "--set" -> settings.add(args[++i]);
                case "--warmup-mib" -> warmupBytes = Long.parseLong(args[++i]) << 20;
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--sizes" -> sizes = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                case "--writers" -> writerCounts = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt)
                        .toArray();
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (dir == null) {
            dir = Files.createTempDirectory("stash-load");
        }
        Files.createDirectories(dir);
        System.out.printf("stash PUT load: dir=%s seconds=%d cores=%d java=%s%n", dir, seconds,
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));

        List<Result> results = new ArrayList<>();
        // CPU time of the whole process (server, client, RocksDB threads) and PUTs, per size/writers.
        java.util.Map<String, long[]> stashCpu = new java.util.HashMap<>();
        Settings loaded = Settings.load(Optional.empty(), settings);
        loaded.rejectUnknown(StashConfigKeys.all());
        StashConfig config = StashConfig.from(loaded).withDataDir(dir.resolve("stash")).withCapacityBytes(1L << 40);
        System.out.println("settings: " + settings);
        try (RpcTransport transport = RpcTransport.create(RpcTransportConfig.defaults());
             RpcClient rpc = RpcClient.create(transport, RpcClientConfig.defaults()
                     .withRequestTimeout(Duration.ofMinutes(1)))) {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            StashServer server = StashServer.start(transport, config, new InetSocketAddress("127.0.0.1", 0),
                    registry);
            try {
                StashClient client = new StashClient(rpc);
                AtomicLong fileIds = new AtomicLong();
                long[] stashDiskBytes = {0};
                long[] stashUserBytes = {0};
                long warmStart = System.nanoTime();
                long warmed = 0;
                while (warmed < warmupBytes) {
                    Result warm = runPuts(client, server.localAddress(), sizes[sizes.length - 1],
                            writerCounts[writerCounts.length - 1], 1, fileIds);
                    warmed += warm.ops() * (long) warm.size();
                }
                System.out.printf(Locale.ROOT, "warm-up: %d MiB of PUTs in %.1f s%n", warmed >> 20,
                        (System.nanoTime() - warmStart) / 1e9);
                for (int size : sizes) {
                    // Warm up the JIT, the connections and the memtables.
                    for (int writers : writerCounts) {
                        runPuts(client, server.localAddress(), size, writers, 1, fileIds);
                    }
                    // Interleave short slices of every phase, so that each phase sees the same mix of
                    // quiet and busy moments of a shared machine; pool each phase's slices.
                    List<List<Result>> slices = new ArrayList<>();
                    for (int phase = 0; phase <= 2 * writerCounts.length; phase++) {
                        slices.add(new ArrayList<>());
                    }
                    Path ceilingFile = prepareOverwriteFile(dir, size, writerCounts[writerCounts.length - 1]);
                    for (int round = 1; round <= rounds; round++) {
                        settle();
                        slices.get(0).add(rawFdatasync(dir, size, seconds));
                        for (int w = 0; w < writerCounts.length; w++) {
                            settle();
                            Result ceiling = rawOverwriteGroupSync(ceilingFile, size, writerCounts[w], seconds);
                            slices.get(writerCounts.length + 1 + w).add(ceiling);
                            System.out.printf(Locale.ROOT, "round %d %s%n", round, format(ceiling));
                        }
                        for (int w = 0; w < writerCounts.length; w++) {
                            Timer commits = registry.get("shardvault.stash.commit").timer();
                            DistributionSummary ops = registry.get("shardvault.stash.commit.ops").summary();
                            long commitsBefore = commits.count();
                            double opsBefore = ops.totalAmount();
                            settle();
                            long diskBefore = processDiskWrites();
                            long cpuBefore = processCpuNanos();
                            double[][] phaseBefore = new double[3][2];
                            for (int m = 0; m < 3; m++) {
                                Timer t = registry.get(BREAKDOWN[m]).timer();
                                phaseBefore[m][0] = t.totalTime(TimeUnit.NANOSECONDS);
                                phaseBefore[m][1] = t.count();
                            }
                            Result slice = runPuts(client, server.localAddress(), size, writerCounts[w], seconds,
                                    fileIds);
                            long cpu = processCpuNanos() - cpuBefore;
                            stashCpu.merge(size + "/" + writerCounts[w], new long[] {cpu, slice.ops()},
                                    (a, b) -> new long[] {a[0] + b[0], a[1] + b[1]});
                            stashDiskBytes[0] += processDiskWrites() - diskBefore;
                            stashUserBytes[0] += slice.ops() * (long) size;
                            slices.get(w + 1).add(slice);
                            long commitCount = commits.count() - commitsBefore;
                            double[] means = new double[3];
                            for (int m = 0; m < 3; m++) {
                                Timer t = registry.get(BREAKDOWN[m]).timer();
                                means[m] = (t.totalTime(TimeUnit.NANOSECONDS) - phaseBefore[m][0])
                                        / Math.max(1, t.count() - phaseBefore[m][1]) / 1e6;
                            }
                            System.out.printf(Locale.ROOT, "round %d %s  cpu=%.1f us/PUT (%.2f cores)  ops/commit=%.1f"
                                            + "  mean ms: queue=%.3f write=%.3f sync=%.3f%n", round, format(slice),
                                    cpu / 1e3 / Math.max(1, slice.ops()), cpu / 1e9 / slice.seconds(),
                                    (ops.totalAmount() - opsBefore) / Math.max(1, commitCount), means[0], means[1],
                                    means[2]);
                        }
                    }
                    for (List<Result> phase : slices) {
                        results.add(pool(phase));
                    }
                    Files.deleteIfExists(ceilingFile);
                }
                // Disk bytes the process wrote during stash phases (chunk log, WAL and SST files, their
                // flushes and compactions; a flush may spill into a neighbouring raw phase) per
                // chunk byte acknowledged: the stash's write amplification under this workload.
                System.out.printf(Locale.ROOT, "stash phases: %d MiB acknowledged, %d MiB written to disk by the"
                                + " process: %.2f disk bytes per chunk byte%n", stashUserBytes[0] >> 20,
                        stashDiskBytes[0] >> 20, (double) stashDiskBytes[0] / Math.max(1, stashUserBytes[0]));
            } finally {
                server.close();
            }
        }
        report(results, sizes, writerCounts, stashCpu);
    }

    /**
     * Waits (at most 5 s) until this process has written nothing to disk for 200 ms: RocksDB's
     * flushes and compactions after a busy phase would otherwise run during the next phase and
     * slow whichever phase happens to follow (in an early version, the raw loops followed the
     * 64-writer phase and looked slower than they are).
     */
    static void settle() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        long last = processDiskWrites();
        int quiet = 0;
        while (quiet < 2 && System.nanoTime() < deadline) {
            Thread.sleep(100);
            long now = processDiskWrites();
            quiet = now == last ? quiet + 1 : 0;
            last = now;
        }
    }

    /** CPU time of this process, all threads, user and system. */
    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** Bytes this process has caused to be written to storage ({@code write_bytes} of /proc/self/io), or 0. */
    static long processDiskWrites() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
                if (line.startsWith("write_bytes:")) {
                    return Long.parseLong(line.substring("write_bytes:".length()).trim());
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
        return 0;
    }

    /** The floor: append {@code size} bytes, fdatasync, repeat. */
    static Result rawFdatasync(Path dir, int size, double seconds) throws IOException {
        Path file = dir.resolve("raw-fdatasync-" + size + ".bin");
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        long[] latencies = new long[1 << 16];
        int n = 0;
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            long now = start;
            while (now < end) {
                buffer.clear();
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(false);
                long after = System.nanoTime();
                if (n == latencies.length) {
                    latencies = Arrays.copyOf(latencies, n * 2);
                }
                latencies[n++] = after - now;
                now = after;
            }
            long elapsed = now - start;
            return summarize("raw append+fdatasync", size, 1, Arrays.copyOf(latencies, n), elapsed);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /**
     * A file of {@code 4 x maxChunks} chunks, written and synced, to overwrite in place: the
     * blocks are allocated and inside the file size, so an fdatasync after overwriting them has
     * no metadata to commit.
     */
    static Path prepareOverwriteFile(Path dir, int size, int maxChunks) throws IOException {
        Path file = dir.resolve("raw-overwrite-" + size + ".bin");
        byte[] bytes = new byte[size];
        new Random(size + 1).nextBytes(bytes);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            for (int i = 0; i < 4 * maxChunks; i++) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
            }
            channel.force(true);
        }
        return file;
    }

    /**
     * The ceiling of group commit for {@code chunks} writers: overwrite {@code chunks} chunks in
     * place (one write call), fdatasync, repeat, moving through the file. Each sync counts as
     * {@code chunks} operations of its latency.
     */
    static Result rawOverwriteGroupSync(Path file, int size, int chunks, double seconds) throws IOException {
        byte[] bytes = new byte[size * chunks];
        new Random(size * 7L + chunks).nextBytes(bytes);
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        long[] latencies = new long[1 << 16];
        int n = 0;
        long position = 0;
        long fileSize = Files.size(file);
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            long now = start;
            while (now < end) {
                if (position + bytes.length > fileSize) {
                    position = 0;
                }
                buffer.clear();
                while (buffer.hasRemaining()) {
                    position += channel.write(buffer, position);
                }
                channel.force(false);
                long after = System.nanoTime();
                if (n + chunks > latencies.length) {
                    latencies = Arrays.copyOf(latencies, Math.max(n + chunks, n * 2));
                }
                Arrays.fill(latencies, n, n + chunks, after - now);
                n += chunks;
                now = after;
            }
            return summarize("ceiling: raw overwrite, one fdatasync per " + chunks, size, chunks,
                    Arrays.copyOf(latencies, n), now - start);
        }
    }

    static Result runPuts(StashClient client, InetSocketAddress stash, int size, int writers, int seconds,
                          AtomicLong fileIds) throws InterruptedException {
        byte[] bytes = new byte[size];
        new Random(size * 31L + writers).nextBytes(bytes);
        int crc = Crc32c.of(bytes);
        // Sent from off-heap memory, as the coordinator sends the chunks its erasure coder wrote into direct
        // buffers: a heap buffer would cost the client a copy into a direct one before every socket write.
        ByteBuf chunk = Unpooled.directBuffer(size).writeBytes(bytes);
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch done = new CountDownLatch(writers);
        ConcurrentLinkedQueue<ShardId> toPurge = new ConcurrentLinkedQueue<>();
        List<long[]> perWriter = new ArrayList<>();
        int[] counts = new int[writers];
        AtomicLong failures = new AtomicLong();
        long start = System.nanoTime();
        for (int w = 0; w < writers; w++) {
            long[][] holder = {new long[1 << 12]};
            perWriter.add(null);
            int writer = w;
            Runnable[] next = new Runnable[1];
            next[0] = () -> {
                if (stop.get()) {
                    perWriter.set(writer, Arrays.copyOf(holder[0], counts[writer]));
                    done.countDown();
                    return;
                }
                ShardId id = new ShardId(1, fileIds.getAndIncrement(), writer % 20);
                long sent = System.nanoTime();
                CompletableFuture<Void> put = client.put(stash, id, 0, crc, chunk.retainedDuplicate());
                put.whenComplete((ok, failure) -> {
                    long latency = System.nanoTime() - sent;
                    if (failure != null) {
                        failures.incrementAndGet();
                    } else {
                        if (counts[writer] == holder[0].length) {
                            holder[0] = Arrays.copyOf(holder[0], counts[writer] * 2);
                        }
                        holder[0][counts[writer]++] = latency;
                        toPurge.add(id);
                    }
                    next[0].run();
                });
            };
            next[0].run();
        }
        Thread purger = new Thread(() -> purgeLoop(client, stash, toPurge, stop), "stash-load-purger");
        purger.start();
        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
        stop.set(true);
        long elapsed = System.nanoTime() - start;
        if (!done.await(1, TimeUnit.MINUTES)) {
            throw new IllegalStateException("writers did not stop");
        }
        purger.join();
        chunk.release();
        if (failures.get() > 0) {
            throw new IllegalStateException(failures.get() + " PUTs failed");
        }
        long[] all = perWriter.stream().flatMapToLong(Arrays::stream).toArray();
        return summarize("stash PUT", size, writers, all, elapsed);
    }

    /** Purges acknowledged entries about a second after they were written, in batches, like pods. */
    private static void purgeLoop(StashClient client, InetSocketAddress stash, ConcurrentLinkedQueue<ShardId> acked,
                                  AtomicBoolean stop) {
        List<ShardId> due = new ArrayList<>();
        while (true) {
            boolean last = stop.get();
            List<ShardId> batch = new ArrayList<>(due);
            due.clear();
            ShardId id;
            while ((id = acked.poll()) != null) {
                due.add(id);
            }
            if (last) {
                batch.addAll(due);
            }
            for (int from = 0; from < batch.size(); from += 1000) {
                client.purge(stash, batch.subList(from, Math.min(batch.size(), from + 1000))).join();
            }
            if (last) {
                return;
            }
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** One phase's slices as one result: pooled latencies, total operations over total time. */
    static Result pool(List<Result> slices) {
        Result first = slices.get(0);
        long[] all = slices.stream().flatMapToLong(r -> Arrays.stream(r.latencies())).toArray();
        double seconds = slices.stream().mapToDouble(Result::seconds).sum();
        Arrays.sort(all);
        return new Result(first.name(), first.size(), first.writers(), all.length, seconds, percentile(all, 0.50),
                percentile(all, 0.99), all);
    }

    static long percentile(long[] sorted, double p) {
        return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, sorted.length * p)];
    }

    static Result summarize(String name, int size, int writers, long[] latencies, long elapsedNanos) {
        Arrays.sort(latencies);
        return new Result(name, size, writers, latencies.length, elapsedNanos / 1e9, percentile(latencies, 0.50),
                percentile(latencies, 0.99), latencies);
    }

    static String format(Result r) {
        return String.format(Locale.ROOT, "%-40s size=%6d writers=%3d ops=%7d  %9.0f ops/s  %8.1f MB/s  p50=%8.3f ms"
                        + "  p99=%8.3f ms", r.name(), r.size(), r.writers(), r.ops(), r.opsPerSecond(),
                r.opsPerSecond() * r.size() / 1e6, r.p50Nanos() / 1e6, r.p99Nanos() / 1e6);
    }

    /** Prints one table row per phase, with the ratios the issue sets goals for. */
    private static void report(List<Result> results, int[] sizes, int[] writerCounts,
                               java.util.Map<String, long[]> stashCpu) {
        System.out.println();
        System.out.println("| chunk | writers | PUT ops/s | MB/s | p50 ms | p99 ms | p50 / raw fdatasync p50 "
                + "| ops/s / stash 1-writer ops/s | process CPU us/PUT |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        for (int size : sizes) {
            Result raw = results.stream().filter(r -> r.size() == size && r.name().startsWith("raw")).findFirst()
                    .orElseThrow();
            Result one = results.stream().filter(r -> r.size() == size && r.name().startsWith("stash")
                    && r.writers() == writerCounts[0]).findFirst().orElseThrow();
            System.out.printf(Locale.ROOT, "| %d KiB | raw append+fdatasync | %.0f | %.1f | %.3f | %.3f | 1.00 | | |%n",
                    size >> 10, raw.opsPerSecond(), raw.opsPerSecond() * size / 1e6, raw.p50Nanos() / 1e6,
                    raw.p99Nanos() / 1e6);
            for (Result r : results) {
                if (r.size() == size && r.name().startsWith("ceiling")) {
                    System.out.printf(Locale.ROOT, "| %d KiB | ceiling: %d chunks overwritten per fdatasync | %.0f | %.1f "
                                    + "| %.3f | %.3f | %.2f | %.1f | |%n", size >> 10, r.writers(), r.opsPerSecond(),
                            r.opsPerSecond() * size / 1e6, r.p50Nanos() / 1e6, r.p99Nanos() / 1e6,
                            (double) r.p50Nanos() / raw.p50Nanos(), r.opsPerSecond() / one.opsPerSecond());
                }
            }
            for (Result r : results) {
                if (r.size() == size && r.name().startsWith("stash")) {
                    long[] cpu = stashCpu.getOrDefault(size + "/" + r.writers(), new long[] {0, 1});
                    System.out.printf(Locale.ROOT, "| %d KiB | %d | %.0f | %.1f | %.3f | %.3f | %.2f | %.1f | %.0f |%n",
                            size >> 10, r.writers(), r.opsPerSecond(), r.opsPerSecond() * size / 1e6,
                            r.p50Nanos() / 1e6, r.p99Nanos() / 1e6, (double) r.p50Nanos() / raw.p50Nanos(),
                            r.opsPerSecond() / one.opsPerSecond(), cpu[0] / 1e3 / Math.max(1, cpu[1]));
                }
            }
        }
    }
}
