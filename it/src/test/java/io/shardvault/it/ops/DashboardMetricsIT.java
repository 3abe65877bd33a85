package io.shardvault.it.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.common.admin.PrometheusText;
import io.shardvault.it.process.ProcessCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * The Grafana dashboard ({@code ops/grafana/}) and the Prometheus rules ({@code ops/prometheus/}) against a live
 * cluster (issue #24, item 4): real stash, pod and coordinator processes started from their fat JARs, some S3
 * traffic from the AWS SDK (a success and a client error of each kind the panels split by), then every process's
 * {@code /metrics} scraped. Every metric any query names must be in a scrape, and every label a selector
 * filters on must be on that metric: a renamed meter or label fails here instead of leaving an empty panel or
 * an alert that can never fire.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DashboardMetricsIT {
    /** Our metric families, and the JVM's and process's from Micrometer's binders. */
    private static final Pattern METRIC = Pattern.compile("\\b((?:shardvault|jvm|process)_[a-z0-9_]+)");
    /** A metric with a label selector: {@code name{a="x",b=~"y"}}. */
    private static final Pattern SELECTOR = Pattern.compile("\\b((?:shardvault|jvm|process)_[a-z0-9_]+)\\{([^}]*)}");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(?:=~|!~|!=|=)");
    private static final Pattern JSON_EXPR = Pattern.compile("\"expr\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern YAML_EXPR = Pattern.compile("(?m)^\\s*expr:\\s*(.+)$");

    @TempDir
    Path dir;

    @Test
    void everyMetricAndLabelTheDashboardAndTheAlertsUseExistsOnALiveCluster() throws Exception {
        Path root = Path.of(System.getProperty("shardvault.root"));
        List<String> queries = new ArrayList<>();
        queries.addAll(expressions(root.resolve("ops/grafana/shardvault-dashboard.json"), JSON_EXPR));
        queries.addAll(expressions(root.resolve("ops/prometheus/shardvault-rules.yml"), YAML_EXPR));
        String rules = Files.readString(root.resolve("ops/prometheus/shardvault-rules.yml"));
        assertThat(count(rules, "(?m)^\\s*- alert:")).as("rules with an expr each")
                .isEqualTo(count(rules, "(?m)^\\s*expr:")).isEqualTo(count(rules, "(?m)^\\s*severity: (critical|warning)$"))
                .isGreaterThan(10);

        ProcessCluster.Options small = new ProcessCluster.Options(2, 1, 3, "2+1",
                ProcessCluster.Options.defaults().podConf(), List.of());
        try (ProcessCluster cluster = ProcessCluster.start(dir, small)) {
            try (S3Client s3 = cluster.s3Client()) {
                s3.createBucket(b -> b.bucket("dashboard"));
                for (int i = 0; i < 5; i++) {
                    s3.putObject(b -> b.bucket("dashboard").key("k"), RequestBody.fromBytes(new byte[200_000]));
                    s3.getObjectAsBytes(b -> b.bucket("dashboard").key("k"));
                }
                s3.listObjectsV2(b -> b.bucket("dashboard"));
                try {
                    s3.getObjectAsBytes(b -> b.bucket("dashboard").key("absent"));
                } catch (NoSuchKeyException expected) {
                    // a 4xx for the error panels
                }
                s3.deleteObject(b -> b.bucket("dashboard").key("k"));
            }
            Map<String, PrometheusText> scrapes = new TreeMap<>();
            for (Map.Entry<String, String> e : cluster.allMetrics().entrySet()) {
                scrapes.put(e.getKey(), PrometheusText.parse(e.getValue()));
            }
            assertThat(scrapes).hasSize(4);

            Set<String> missing = new TreeSet<>();
            Set<String> missingLabels = new TreeSet<>();
            for (String query : queries) {
                Matcher m = METRIC.matcher(query);
                while (m.find()) {
                    if (samples(scrapes, m.group(1)).isEmpty()) {
                        missing.add(m.group(1) + "   in   " + query);
                    }
                }
                Matcher s = SELECTOR.matcher(query);
                while (s.find()) {
                    List<PrometheusText.Sample> samples = samples(scrapes, s.group(1));
                    Matcher l = LABEL.matcher(s.group(2));
                    while (l.find()) {
                        String label = l.group(1);
                        if (!samples.isEmpty() && samples.stream().noneMatch(x -> x.labels().containsKey(label))) {
                            missingLabels.add(s.group(1) + " has no label " + label + "   in   " + query);
                        }
                    }
                }
            }
            assertThat(missing).as("metrics the dashboard or the rules name that no process publishes").isEmpty();
            assertThat(missingLabels).as("labels the dashboard or the rules filter on that the metric lacks").isEmpty();
        }
    }

    private static List<PrometheusText.Sample> samples(Map<String, PrometheusText> scrapes, String name) {
        List<PrometheusText.Sample> out = new ArrayList<>();
        for (PrometheusText text : scrapes.values()) {
            out.addAll(text.find(name));
        }
        return out;
    }

    private static List<String> expressions(Path file, Pattern pattern) throws Exception {
        List<String> out = new ArrayList<>();
        Matcher m = pattern.matcher(Files.readString(file));
        while (m.find()) {
            out.add(m.group(1).replace("\\\"", "\""));
        }
        assertThat(out).as("queries in " + file).hasSizeGreaterThan(10);
        return out;
    }

    private static long count(String text, String regex) {
        return Pattern.compile(regex).matcher(text).results().count();
    }
}
