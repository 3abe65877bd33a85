package io.shardvault.coordinator.catalog;

import io.shardvault.jmh.AbstractBenchmark;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
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

/**
 * Latency of one linearizable ListObjectVersions page in a versioned bucket of {@code versions}
 * versions (1,000,000 by default) spread over {@code prefixes} prefixes ({@code job-NNNN/}), each
 * key holding {@code versionsPerKey} versions, on a one-peer group (issue #9, point 4).
 *
 * <p>The pages: the first and the last prefix (a full scan would make the last one cost the whole
 * bucket), a page resuming at a random key marker, one resuming inside a key's versions (key and
 * version-id markers), and the root listing with delimiter {@code /} that rolls every prefix up
 * (one seek per prefix, never a read of its keys). The bucket is loaded once per trial through the
 * catalog with 512 puts in flight, which Ratis batches into shared log entries, once per JVM:
 * {@code jmh/run.sh CatalogVersionsBenchmark -f 0 ...} shares it between the five benchmarks.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class CatalogVersionsBenchmark extends AbstractBenchmark {
    static final String BUCKET = "versions";

    @Param({"1000000"})
    public int versions;
    @Param({"1000"})
    public int prefixes;
    @Param({"4"})
    public int versionsPerKey;

    private Catalog catalog;
    private int keysPerPrefix;
    private String lastPrefix;
    private List<String[]> markers;

    /**
     * Loaded buckets by parameters, shared by the benchmarks of one JVM: run with {@code -f 0} so the
     * five page kinds share one load (a fork per benchmark loads the bucket again each time).
     */
    private static final Map<String, Loaded> LOADED = new ConcurrentHashMap<>();

    private record Loaded(CatalogBenchmarkCluster cluster, List<String[]> markers) {
    }

    @Setup(Level.Trial)
    public void start() throws Exception {
        keysPerPrefix = Math.max(1, versions / versionsPerKey / prefixes);
        lastPrefix = prefix(prefixes - 1);
        String id = versions + "/" + prefixes + "/" + versionsPerKey;
        Loaded loaded = LOADED.get(id);
        if (loaded == null) {
            loaded = load();
            LOADED.put(id, loaded);
            CatalogBenchmarkCluster c = loaded.cluster();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    c.close();
                } catch (Exception e) {
                    // The JVM is going away; its temporary directory may stay.
                }
            }));
        }
        catalog = loaded.cluster().catalog();
        markers = loaded.markers();
    }

    private Loaded load() throws Exception {
        CatalogBenchmarkCluster cluster = new CatalogBenchmarkCluster(1);
        Catalog c = cluster.catalog();
        c.createBucket(BUCKET, "AK", true).get(60, TimeUnit.SECONDS);
        long t0 = System.nanoTime();
        load(c, prefixes, keysPerPrefix, versionsPerKey, 512);
        System.out.printf("%nloaded %,d versions (%,d prefixes x %,d keys x %d) in %.1f s%n",
                (long) prefixes * keysPerPrefix * versionsPerKey, prefixes, keysPerPrefix, versionsPerKey,
                (System.nanoTime() - t0) / 1e9);
        // Version-id markers to resume from, read once: the second version of 1,000 random keys.
        List<String[]> m = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            String key = key(ThreadLocalRandom.current().nextInt(prefixes),
                    ThreadLocalRandom.current().nextInt(keysPerPrefix));
            VersionListing l = c.listObjectVersions(new ListVersionsQuery(BUCKET, key, "", "", "", 2)).join();
            m.add(new String[] {key, l.versions().get(l.versions().size() - 1).versionId()});
        }
        return new Loaded(cluster, m);
    }

    static String prefix(int p) {
        return String.format("job-%04d/", p);
    }

    static String key(int p, int k) {
        return prefix(p) + String.format("blk-%06d", k);
    }

    /** Puts every version, each key's versions one after the other, with {@code window} puts in flight. */
    static void load(Catalog catalog, int prefixes, int keysPerPrefix, int versionsPerKey, int window)
            throws Exception {
        Semaphore inFlight = new Semaphore(window);
        List<Throwable> failures = new ArrayList<>();
        long n = 0;
        for (int p = 0; p < prefixes; p++) {
            for (int k = 0; k < keysPerPrefix; k++) {
                String key = key(p, k);
                for (int v = 0; v < versionsPerKey; v++) {
                    inFlight.acquire();
                    CompletableFuture<PutResult> f = catalog.putObjectVersion(PutObjectVersion.of(BUCKET, key,
                            "d41d8cd98f00b204e9800998ecf8427e", ObjectMetadata.EMPTY,
                            new FileRef(1, n++, 1 << 20, CatalogBenchmarkCluster.LAYOUT, List.of())));
                    f.whenComplete((r, t) -> {
                        if (t != null) {
                            synchronized (failures) {
                                failures.add(t);
                            }
                        }
                        inFlight.release();
                    });
                }
            }
        }
        inFlight.acquire(window);
        if (!failures.isEmpty()) {
            throw new IllegalStateException(failures.size() + " loads failed", failures.get(0));
        }
    }

    private VersionListing page(ListVersionsQuery q, int expected) {
        VersionListing page = catalog.listObjectVersions(q).join();
        if (page.versions().size() + page.commonPrefixes().size() != expected) {
            throw new IllegalStateException("listed " + page.versions().size() + " + " + page.commonPrefixes().size()
                    + " for " + q);
        }
        return page;
    }

    private int pageSize() {
        return Math.min(1000, keysPerPrefix * versionsPerKey);
    }

    @Benchmark
    public VersionListing firstPrefix() {
        return page(new ListVersionsQuery(BUCKET, prefix(0), "", "", "", 1000), pageSize());
    }

    @Benchmark
    public VersionListing lastPrefix() {
        return page(new ListVersionsQuery(BUCKET, lastPrefix, "", "", "", 1000), pageSize());
    }

    @Benchmark
    public VersionListing randomKeyMarker() {
        // A marker in the first half of the bucket, so that a full page always follows.
        String marker = key(ThreadLocalRandom.current().nextInt(Math.max(1, prefixes / 2)),
                ThreadLocalRandom.current().nextInt(keysPerPrefix));
        return page(new ListVersionsQuery(BUCKET, "", "", marker, "", 1000), 1000);
    }

    @Benchmark
    public VersionListing randomVersionIdMarker() {
        String[] m = markers.get(ThreadLocalRandom.current().nextInt(markers.size()));
        String prefix = m[0].substring(0, m[0].indexOf('/') + 1);
        VersionListing page = catalog.listObjectVersions(new ListVersionsQuery(BUCKET, prefix, "", m[0], m[1], 1000))
                .join();
        if (page.versions().isEmpty()) {
            throw new IllegalStateException("nothing after " + m[0] + " " + m[1]);
        }
        return page;
    }

    @Benchmark
    public VersionListing rootWithDelimiter() {
        return page(new ListVersionsQuery(BUCKET, "", "/", "", "", 1000), Math.min(1000, prefixes));
    }
}
