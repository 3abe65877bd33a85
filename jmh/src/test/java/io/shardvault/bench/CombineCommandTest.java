package io.shardvault.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench combine} merges the latency distributions of runs, not their percentiles. */
class CombineCommandTest {
    @TempDir
    Path dir;

    @Test
    void twoRunsOfOneConfigurationCombineIntoThePercentilesOfTheirUnion() throws Exception {
        // A fast run and a slow one of the same configuration, each in its own results file.
        long[] fast = samples(1000, 4_000_000L, 2_000_000L, 1);
        long[] slow = samples(300, 40_000_000L, 30_000_000L, 2);
        Report.appendTsv(dir.resolve("a.tsv"), List.of(
                new Result("hdd", "latency", "PUT", 256 << 10, 1, LatencyStats.of(fast), 10, 2.5, 100),
                new Result("hdd", "latency", "PUT", 1 << 20, 1, LatencyStats.of(fast), 5, 5, 200)));
        Report.appendTsv(dir.resolve("b.tsv"), List.of(
                new Result("hdd", "latency", "PUT", 256 << 10, 1, LatencyStats.of(slow), 4, 1, 75)));

        CombineCommand combine = new CombineCommand();
        combine.files = List.of(dir.resolve("a.tsv"), dir.resolve("b.tsv"));
        List<Result> rows = combine.call();

        assertThat(rows).extracting(Result::key).containsExactly("PUT 256KiB x1", "PUT 1MiB x1");
        Result merged = rows.get(0);
        Histogram union = new Histogram(LatencyStats.SIGNIFICANT_DIGITS);
        for (long n : fast) {
            union.recordValue(n);
        }
        for (long n : slow) {
            union.recordValue(n);
        }
        assertThat(merged.latency().count()).isEqualTo(1300);
        for (double p : new double[] {50, 90, 99, 99.9, 100}) {
            assertThat(merged.latency().percentileMs(p)).as("p%s", p)
                    .isEqualTo(union.getValueAtPercentile(p) / 1e6);
        }
        assertThat(merged.latency().meanMs()).isEqualTo(union.getMean() / 1e6);
        // What merging percentiles would have said instead: the mean of the two p90s is far from the union's.
        double meanOfP90s = (LatencyStats.of(fast).p90Ms() + LatencyStats.of(slow).p90Ms()) / 2;
        assertThat(Math.abs(meanOfP90s - merged.latency().p90Ms())).isGreaterThan(5);
        // Rates over the runs' total time: (10 x 100 s + 4 x 75 s) / 175 s.
        assertThat(merged.totalSeconds()).isEqualTo(175);
        assertThat(merged.objectsPerSecond()).isCloseTo(1300.0 / 175, within(1e-9));
        assertThat(rows.get(1).latency().count()).isEqualTo(1000);
    }

    @Test
    void aResultsFileOfTheFirstLayoutIsRefusedNamingItsVersion() throws Exception {
        StringBuilder v1 = new StringBuilder("hdd\tlatency\tPUT\t262144\t1\t30\t1.0\t1.0\t1.0\t1.0\t1.0\t1.0\t1.0\t1.0");
        for (int i = 0; i < 18; i++) {
            v1.append("\t1.0");
        }
        Path file = dir.resolve("old.tsv");
        Files.writeString(file, v1 + "\n", StandardCharsets.UTF_8);

        assertThatThrownBy(() -> Report.readTsv(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("old.tsv line 1").hasMessageContaining("v1 results line")
                .hasMessageContaining("run the scenario again");
        // On the command line: the message alone, no stack trace.
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream stderr = System.err;
        System.setErr(new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            assertThat(BenchMain.run("combine", file.toString())).isEqualTo(1);
        } finally {
            System.setErr(stderr);
        }
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("bench: ").contains("is a v1 results line")
                .doesNotContain("\tat ");
    }

    @Test
    void aRecordedHistogramReadsBackAsTheSameDistribution() throws Exception {
        long[] nanos = samples(500, 10_000_000L, 8_000_000L, 3);
        Result row = new Result("x", "throughput", "GET", 1 << 20, 8, LatencyStats.of(nanos), 100, 104.9, 5);
        Report.appendTsv(dir.resolve("r.tsv"), List.of(row));

        Result back = Report.readTsv(dir.resolve("r.tsv")).get(0);

        assertThat(back.key()).isEqualTo("GET 1MiB x8");
        assertThat(back.latency().count()).isEqualTo(500);
        assertThat(back.latency().meanMs()).isEqualTo(row.latency().meanMs());
        for (double p : new double[] {0, 10, 50, 90, 99, 99.9, 100}) {
            assertThat(back.latency().percentileMs(p)).as("p%s", p).isEqualTo(row.latency().percentileMs(p));
        }
        // The summary columns scripts read with awk (p50 is the 8th) are still where they were.
        String[] columns = Files.readAllLines(dir.resolve("r.tsv")).get(0).split("\t");
        assertThat(Double.parseDouble(columns[7])).isCloseTo(row.latency().p50Ms(), within(1e-4));
        assertThat(columns[14]).isEqualTo("v2");
    }

    /** {@code n} latencies of mean about {@code base + spread / 2}, with a long tail, from {@code seed}. */
    private static long[] samples(int n, long base, long spread, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] nanos = new long[n];
        for (int i = 0; i < n; i++) {
            double u = random.nextDouble();
            nanos[i] = base + (long) (spread * u * u * (1 + 9 * u * u * u * u));
        }
        return nanos;
    }
}
