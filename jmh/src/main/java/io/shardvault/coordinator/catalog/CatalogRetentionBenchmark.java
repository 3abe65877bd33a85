package io.shardvault.coordinator.catalog;

import io.shardvault.jmh.AbstractBenchmark;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
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
 * A retention extension pass (PutObjectRetention, as Veeam runs every few days) over
 * {@code objects} COMPLIANCE-locked versions (10,000 by default), {@code window} requests in
 * flight, on a one-peer group (issue #9, point 4). One operation is the whole pass; objects/s is
 * {@code objects} divided by its time. Each pass extends every retention by one more day, so every
 * call is a real extension, checked and applied in the state machine.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 5)
public class CatalogRetentionBenchmark extends AbstractBenchmark {
    static final String BUCKET = "locked";

    @Param({"10000"})
    public int objects;
    @Param({"64"})
    public int window;

    private CatalogBenchmarkCluster cluster;
    private Catalog catalog;
    private Instant until;

    @Setup(Level.Trial)
    public void start() throws Exception {
        cluster = new CatalogBenchmarkCluster(1);
        catalog = cluster.catalog();
        catalog.createBucket(BUCKET, "AK", true).get(60, TimeUnit.SECONDS);
        until = Instant.now().plus(30, ChronoUnit.DAYS).truncatedTo(ChronoUnit.SECONDS);
        Retention retention = new Retention(RetentionMode.COMPLIANCE, until);
        long t0 = System.nanoTime();
        run(n -> catalog.putObjectVersion(new PutObjectVersion(BUCKET, key(n), 1 << 20,
                "d41d8cd98f00b204e9800998ecf8427e", ObjectMetadata.EMPTY, List.of(new FilePart(0,
                "d41d8cd98f00b204e9800998ecf8427e", new FileRef(1, n, 1 << 20, CatalogBenchmarkCluster.LAYOUT,
                List.of()))), WriteCondition.NONE, Optional.of(retention), false)));
        System.out.printf("%nloaded %,d locked versions in %.1f s%n", objects, (System.nanoTime() - t0) / 1e9);
    }

    static String key(int n) {
        return String.format("Veeam/Backup/job/blk-%08d", n);
    }

    interface Call {
        CompletableFuture<?> start(int n);
    }

    private void run(Call call) throws Exception {
        Semaphore inFlight = new Semaphore(window);
        List<Throwable> failures = new ArrayList<>();
        for (int n = 0; n < objects; n++) {
            inFlight.acquire();
            call.start(n).whenComplete((r, t) -> {
                if (t != null) {
                    synchronized (failures) {
                        failures.add(t);
                    }
                }
                inFlight.release();
            });
        }
        inFlight.acquire(window);
        if (!failures.isEmpty()) {
            throw new IllegalStateException(failures.size() + " calls failed", failures.get(0));
        }
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        cluster.close();
    }

    @Benchmark
    public Instant extendAll() throws Exception {
        until = until.plus(1, ChronoUnit.DAYS);
        Optional<Retention> extended = Optional.of(new Retention(RetentionMode.COMPLIANCE, until));
        run(n -> catalog.setRetention(BUCKET, key(n), Optional.empty(), extended, false));
        return until;
    }
}
