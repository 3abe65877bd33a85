package io.shardvault.coordinator.catalog;

import io.shardvault.jmh.AbstractBenchmark;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Committed put-object-version calls through Ratis: each call is one log entry, replicated to a
 * majority, fsynced and applied before it returns. Run with {@code -t 1} and {@code -t 64} for 1
 * and 64 concurrent clients; {@code peers} is the group size. SampleTime mode gives p50/p99 and,
 * divided into the thread count, the commit rate.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CatalogPutBenchmark extends AbstractBenchmark {
    @Param({"1", "3"})
    public int peers;

    private CatalogBenchmarkCluster cluster;
    private Catalog catalog;
    private final AtomicLong next = new AtomicLong();

    @Setup(Level.Trial)
    public void start() throws Exception {
        cluster = new CatalogBenchmarkCluster(peers);
        catalog = cluster.catalog();
        catalog.createBucket("bench", "AK", false).get(60, TimeUnit.SECONDS);
        catalog.setVersioning("bench", VersioningState.ENABLED).get(60, TimeUnit.SECONDS);
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        cluster.close();
    }

    @Benchmark
    public PutResult putObjectVersion() {
        long n = next.incrementAndGet();
        return catalog.putObjectVersion(PutObjectVersion.of("bench", "obj/" + n, "d41d8cd98f00b204e9800998ecf8427e",
                ObjectMetadata.EMPTY, new FileRef(1, n, 1 << 20, CatalogBenchmarkCluster.LAYOUT, List.of()))).join();
    }
}
