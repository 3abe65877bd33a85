package io.shardvault.coordinator.catalog;

import io.shardvault.jmh.AbstractBenchmark;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
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
 * Latency of one linearizable ListObjects page of 1,000 keys, starting at a random point of a
 * bucket of {@code bucketKeys} keys (1,000,000 by default), on a one-peer group. The bucket is
 * loaded once per trial through the catalog with 512 puts in flight, which Ratis batches.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class CatalogListBenchmark extends AbstractBenchmark {
    @Param({"1000000"})
    public int bucketKeys;

    private CatalogBenchmarkCluster cluster;
    private Catalog catalog;

    @Setup(Level.Trial)
    public void start() throws Exception {
        cluster = new CatalogBenchmarkCluster(1);
        catalog = cluster.catalog();
        catalog.createBucket("big", "AK", false).get(60, TimeUnit.SECONDS);
        long t0 = System.nanoTime();
        CatalogBenchmarkCluster.load(catalog, "big", "data/", bucketKeys, 512);
        System.out.printf("%nloaded %,d keys in %.1f s%n", bucketKeys, (System.nanoTime() - t0) / 1e9);
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        cluster.close();
    }

    @Benchmark
    public ObjectListing list1000() {
        String start = String.format("data/%08d", ThreadLocalRandom.current().nextInt(Math.max(1, bucketKeys - 1000)));
        ObjectListing page = catalog.listObjects(new ListObjectsQuery("big", "data/", "", start, Optional.empty(), 1000))
                .join();
        if (page.objects().size() != Math.min(1000, bucketKeys - 1)) {
            throw new IllegalStateException("listed " + page.objects().size());
        }
        return page;
    }
}
