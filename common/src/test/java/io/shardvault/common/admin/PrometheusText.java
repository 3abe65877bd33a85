package io.shardvault.common.admin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parsed Prometheus text exposition (format 0.0.4), for tests that scrape {@code /metrics}:
 * samples with their labels and values. Comments ({@code # HELP}, {@code # TYPE}) are skipped.
 * Rejects lines it cannot parse, so a malformed scrape fails the test.
 */
public final class PrometheusText {
    private static final Pattern SAMPLE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+(\\S+)(\\s+\\d+)?");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\",?");

    /** One sample line. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    private final List<Sample> samples;

    private PrometheusText(List<Sample> samples) {
        this.samples = List.copyOf(samples);
    }

    public static PrometheusText parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = SAMPLE.matcher(line);
            if (!m.matches()) {
                throw new IllegalArgumentException("not a Prometheus sample line: " + line);
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(3) != null) {
                Matcher l = LABEL.matcher(m.group(3));
                int end = 0;
                while (l.find() && l.start() == end) {
                    labels.put(l.group(1), l.group(2));
                    end = l.end();
                }
                if (end != m.group(3).length()) {
                    throw new IllegalArgumentException("bad labels in: " + line);
                }
            }
            samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(4).replace("Inf", "Infinity"))));
        }
        return new PrometheusText(samples);
    }

    public List<Sample> samples() {
        return samples;
    }

    /** Every sample of a metric name whose labels include all of {@code labels} (name, value pairs). */
    public List<Sample> find(String name, String... labels) {
        List<Sample> found = new ArrayList<>();
        for (Sample s : samples) {
            if (s.name().equals(name) && hasLabels(s, labels)) {
                found.add(s);
            }
        }
        return found;
    }

    /** The sum of the values of {@link #find}; empty when no sample matches. */
    public Optional<Double> sum(String name, String... labels) {
        List<Sample> found = find(name, labels);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.stream().mapToDouble(Sample::value).sum());
    }

    private static boolean hasLabels(Sample s, String... labels) {
        for (int i = 0; i + 1 < labels.length; i += 2) {
            if (!labels[i + 1].equals(s.labels().get(labels[i]))) {
                return false;
            }
        }
        return true;
    }
}
