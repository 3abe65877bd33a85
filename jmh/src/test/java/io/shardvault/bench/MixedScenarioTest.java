package io.shardvault.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/** {@code bench mixed} against a real S3 server (s3-api over its in-memory store). */
class MixedScenarioTest extends AgainstS3Server {
    private String[] mixed(String runId, String... extra) {
        List<String> args = new ArrayList<>(List.of("--run-id", runId, "--size", "16KiB", "--clients", "4"));
        args.addAll(List.of(extra));
        return args("mixed", "mix", args.toArray(String[]::new));
    }

    @Test
    void theDefaultMixMakesEveryRequestAndLeavesTheObjectsItsPutsAndDeletesSayItShould() throws Exception {
        assertThat(BenchMain.run(mixed("default", "--objects", "30", "--count", "300", "--seconds", "120",
                "--plot", dir.resolve("charts").toString()))).isZero();

        Map<String, Result> rows = Report.readTsv(dir.resolve("results.tsv")).stream()
                .collect(Collectors.toMap(Result::op, r -> r));
        assertThat(rows).containsOnlyKeys("PUT", "GET", "HEAD", "DELETE", "LIST", "ALL");
        long sum = rows.values().stream().filter(r -> !r.op().equals("ALL")).mapToLong(r -> r.latency().count())
                .sum();
        assertThat(sum).isEqualTo(300);
        assertThat(rows.get("ALL").latency().count()).isEqualTo(300);
        assertThat(rows.get("ALL").objectsPerSecond()).isPositive();
        assertThat(rows.get("PUT").megabytesPerSecond()).isPositive();
        assertThat(rows.get("HEAD").megabytesPerSecond()).isZero();
        // The weights 40/25/20/10/5 within a loose band of 300 draws.
        assertThat(rows.get("PUT").latency().count()).isBetween(90L, 150L);
        assertThat(rows.get("LIST").latency().count()).isBetween(3L, 30L);
        assertThat(rows.values()).allSatisfy(r -> assertThat(r.latency().p50Ms()).isPositive());

        try (S3Client s3 = server.syncClient()) {
            List<S3Object> left = s3.listObjectsV2Paginator(b -> b.bucket(BUCKET).prefix("bench/default/mixed/"))
                    .contents().stream().toList();
            assertThat((long) left.size()).isEqualTo(30 + rows.get("PUT").latency().count()
                    - rows.get("DELETE").latency().count());
        }
        assertThat(dir.resolve("charts")).isDirectoryContaining("glob:**mixed-ALL-16KiB.png")
                .isDirectoryContaining("glob:**mixed-mix-x4-16KiB.png");
    }

    @Test
    void weightsChooseTheRequestsAndATimeLimitEndsAMixWithoutACount() throws Exception {
        assertThat(BenchMain.run(mixed("heads", "--objects", "5", "--weights", "HEAD=3,LIST=1",
                "--seconds", "1"))).isZero();

        List<Result> rows = Report.readTsv(dir.resolve("results.tsv"));
        assertThat(rows).extracting(Result::op).containsExactly("HEAD", "LIST", "ALL");
        assertThat(rows.get(2).totalSeconds()).isBetween(0.9, 30.0);
    }

    @Test
    void aMixThatRunsOutOfObjectsOrHasNoWeightFails() throws Exception {
        assertThat(BenchMain.run(mixed("empty", "--objects", "3", "--weights", "DELETE=1", "--count", "10")))
                .isNotZero();
        assertThat(BenchMain.run(mixed("none", "--objects", "1", "--weights", "GET=0", "--count", "1")))
                .isNotZero();
        assertThat(BenchMain.run(mixed("negative", "--objects", "1", "--weights", "GET=-1,PUT=2", "--count", "1")))
                .isNotZero();

        KeyPool pool = new KeyPool(1);
        long only = pool.take(new SplittableRandom(1), MixedScenario.Op.GET);
        assertThat(only).isZero();
        assertThatThrownBy(() -> pool.take(new SplittableRandom(1), MixedScenario.Op.DELETE))
                .hasMessageContaining("no object left for a DELETE").hasMessageContaining("--objects");
        pool.add(only);
        assertThat(pool.fresh()).isEqualTo(1);
        assertThat(pool.size()).isEqualTo(1);
    }

    @Test
    void theDrawFollowsTheCumulativeWeights() {
        int[] cumulative = {40, 65, 85, 95, 100};
        assertThat(MixedScenario.draw(cumulative, 0)).isEqualTo(MixedScenario.Op.PUT);
        assertThat(MixedScenario.draw(cumulative, 39)).isEqualTo(MixedScenario.Op.PUT);
        assertThat(MixedScenario.draw(cumulative, 40)).isEqualTo(MixedScenario.Op.GET);
        assertThat(MixedScenario.draw(cumulative, 85)).isEqualTo(MixedScenario.Op.DELETE);
        assertThat(MixedScenario.draw(cumulative, 99)).isEqualTo(MixedScenario.Op.LIST);
        // A zero weight is never drawn: HEAD's share below is empty.
        int[] noHead = {1, 2, 2, 3, 4};
        for (int t = 0; t < 4; t++) {
            assertThat(MixedScenario.draw(noHead, t)).isNotEqualTo(MixedScenario.Op.HEAD);
        }
    }
}
