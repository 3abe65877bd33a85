package io.shardvault.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Runs every scenario with small counts against a real S3 server (s3-api over its in-memory store). */
class BenchMainTest extends AgainstS3Server {
    @Test
    void scenariosWriteResultsThatCombineIntoTableChartsAndGoals() throws Exception {
        assertThat(BenchMain.run(args("latency", "a", "--count", "6", "--warmup", "1", "--pause-ms", "1",
                "--sizes", "256KiB"))).isZero();
        assertThat(BenchMain.run(args("latency", "b", "--count", "6", "--warmup", "1", "--pause-ms", "1",
                "--sizes", "256KiB"))).isZero();
        assertThat(BenchMain.run(args("latency", "c", "--count", "6", "--warmup", "1", "--pause-ms", "1",
                "--sizes", "256KiB"))).isZero();
        assertThat(BenchMain.run(args("throughput", "a", "--clients", "1,32", "--sizes", "1MiB",
                "--count", "40"))).isZero();
        assertThat(BenchMain.run(args("throughput", "b", "--clients", "32", "--sizes", "1MiB",
                "--count", "32", "--ops", "PUT"))).isZero();
        assertThat(BenchMain.run(args("ttfb", "a", "--sizes", "16KiB,1MiB", "--count", "3", "--json")))
                .isZero();
        assertThat(BenchMain.run(args("backup", "a", "--total", "3MiB", "--block", "256KiB", "--batch", "5",
                "--plot", dir.resolve("backup-charts").toString()))).isZero();

        List<Result> rows = Report.readTsv(dir.resolve("results.tsv"));
        assertThat(rows).extracting(Result::key).contains("PUT 256KiB x1", "PUT 1MiB x32", "GET 1MiB x32",
                "TTFB 16KiB x1", "GET 1MiB x1", "PUT 256KiB x8", "DELETE 256KiB x1");
        assertThat(rows).filteredOn(r -> r.scenario().equals("latency"))
                .allSatisfy(r -> assertThat(r.latency().count()).isEqualTo(6));
        Result backup = rows.stream().filter(r -> r.scenario().equals("backup") && r.op().equals("PUT"))
                .findFirst().orElseThrow();
        assertThat(backup.latency().count()).isEqualTo(12);
        assertThat(rows).allSatisfy(r -> assertThat(r.latency().p50Ms()).isPositive());
        assertThat(dir.resolve("backup-charts")).isDirectoryContaining("glob:**.png");

        Path charts = dir.resolve("charts");
        assertThat(BenchMain.run("combine", dir.resolve("results.tsv").toString(), "--plot", charts.toString(),
                "--goals", "a,b,c")).isZero();
        assertThat(charts.resolve("latency-PUT-256KiB.png")).isNotEmptyFile();
        assertThat(Files.size(charts.resolve("throughput-PUT-1MiB.png"))).isGreaterThan(1000);
    }

    @Test
    void ttfbReadsObjectsAnEarlierUploadLeftUnderTheSameRunIdWithManyClients() throws Exception {
        assertThat(BenchMain.run(args("ttfb", "gets", "--sizes", "256KiB", "--objects", "5", "--clients", "3",
                "--run-id", "shared", "--only", "upload"))).isZero();
        assertThat(Report.readTsv(dir.resolve("results.tsv"))).isEmpty();
        assertThat(BenchMain.run(args("ttfb", "gets", "--sizes", "256KiB", "--objects", "5", "--clients", "3",
                "--run-id", "shared", "--only", "read", "--count", "10", "--warmup", "0"))).isZero();

        List<Result> rows = Report.readTsv(dir.resolve("results.tsv"));
        assertThat(rows).extracting(Result::key).containsExactly("TTFB 256KiB x3", "GET 256KiB x3");
        assertThat(rows).allSatisfy(r -> assertThat(r.latency().count()).isEqualTo(10));
        assertThat(rows.get(0).latency().p50Ms()).isPositive().isLessThanOrEqualTo(rows.get(1).latency().p50Ms());
        assertThat(rows.get(1).objectsPerSecond()).isPositive();
        // A read alone uploads nothing: under another run id there is nothing to read.
        assertThat(BenchMain.run(args("ttfb", "gets", "--sizes", "256KiB", "--run-id", "never-uploaded",
                "--only", "read", "--count", "1"))).isNotZero();
    }

    @Test
    void badArgumentsFail() {
        assertThat(BenchMain.run("latency", "--endpoint", "http://127.0.0.1:1", "--sizes", "lots")).isNotZero();
        assertThat(BenchMain.run("nonsense")).isNotZero();
    }

    @Test
    void percentilesComeFromTheHistogramWithinItsThreeDigits() {
        long[] nanos = new long[100];
        for (int i = 0; i < 100; i++) {
            nanos[i] = (100 - i) * 1_000_000L;
        }
        LatencyStats s = LatencyStats.of(nanos);
        assertThat(s.count()).isEqualTo(100);
        assertThat(s.p50Ms()).isCloseTo(50.0, withinPercentage(0.1));
        assertThat(s.p90Ms()).isCloseTo(90.0, withinPercentage(0.1));
        assertThat(s.p99Ms()).isCloseTo(99.0, withinPercentage(0.1));
        assertThat(s.maxMs()).isCloseTo(100.0, withinPercentage(0.1));
        assertThat(s.meanMs()).isCloseTo(50.5, withinPercentage(0.1));
        assertThat(Sizes.parse("256KiB")).isEqualTo(256 * 1024);
        assertThat(Sizes.format(16L << 20)).isEqualTo("16MiB");
    }
}
