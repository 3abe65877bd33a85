package io.shardvault.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Renders results as a terminal table or JSON, and writes/reads the TSV results file that
 * {@code bench combine} merges. TSV layout {@value #TSV_VERSION}, one result per line, tab-separated: label,
 * scenario, op, size, clients, count, mean, p50, p90, p99, max (ms), objects/s, MB/s, total s (the columns
 * that scripts read with awk, unchanged since v1), then {@code v2}, then the latency histogram in
 * HdrHistogram's compressed base64 encoding ({@link LatencyStats#encoded()}). v1 lines (an 18-point
 * percentile curve instead of the version and the histogram) are refused: a curve cannot be merged.
 */
final class Report {
    static final String TSV_VERSION = "v2";
    private static final int SUMMARY_COLUMNS = 14;
    private static final int V1_COLUMNS = SUMMARY_COLUMNS + 18;

    private Report() {
    }

    static void printTable(PrintStream out, List<Result> results) {
        out.printf(Locale.ROOT, "%-14s %-10s %-6s %8s %7s %7s %9s %9s %9s %9s %9s %9s %9s %9s%n", "config",
                "scenario", "op", "size", "clients", "count", "mean ms", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms",
                "obj/s", "MB/s", "total s");
        for (Result r : results) {
            LatencyStats l = r.latency();
            out.printf(Locale.ROOT, "%-14s %-10s %-6s %8s %7d %7d %9.2f %9.2f %9.2f %9.2f %9.2f %9.1f %9.1f %9.2f%n",
                    r.label(), r.scenario(), r.op(), Sizes.format(r.sizeBytes()), r.clients(), l.count(), l.meanMs(),
                    l.p50Ms(), l.p90Ms(), l.p99Ms(), l.p999Ms(), r.objectsPerSecond(), r.megabytesPerSecond(),
                    r.totalSeconds());
        }
    }

    static void printJson(PrintStream out, List<Result> results) {
        StringBuilder sb = new StringBuilder("[\n");
        for (int i = 0; i < results.size(); i++) {
            Result r = results.get(i);
            LatencyStats l = r.latency();
            sb.append(String.format(Locale.ROOT, "  {\"label\": \"%s\", \"scenario\": \"%s\", \"op\": \"%s\", "
                    + "\"sizeBytes\": %d, \"clients\": %d, \"count\": %d, \"meanMs\": %.3f, \"p50Ms\": %.3f, "
                    + "\"p90Ms\": %.3f, \"p99Ms\": %.3f, \"p999Ms\": %.3f, \"maxMs\": %.3f, "
                    + "\"objectsPerSecond\": %.3f, \"megabytesPerSecond\": %.3f, \"totalSeconds\": %.3f, "
                    + "\"histogram\": \"%s\"}",
                    escape(r.label()), r.scenario(), r.op(), r.sizeBytes(), r.clients(), l.count(), l.meanMs(),
                    l.p50Ms(), l.p90Ms(), l.p99Ms(), l.p999Ms(), l.maxMs(), r.objectsPerSecond(),
                    r.megabytesPerSecond(), r.totalSeconds(), l.encoded()));
            sb.append(i + 1 < results.size() ? ",\n" : "\n");
        }
        out.print(sb.append("]\n"));
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    static void appendTsv(Path file, List<Result> results) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (Result r : results) {
            LatencyStats l = r.latency();
            sb.append(String.join("\t", r.label(), r.scenario(), r.op(), Long.toString(r.sizeBytes()),
                    Integer.toString(r.clients()), Long.toString(l.count())));
            for (double d : new double[] {l.meanMs(), l.p50Ms(), l.p90Ms(), l.p99Ms(), l.maxMs(),
                r.objectsPerSecond(), r.megabytesPerSecond(), r.totalSeconds()}) {
                sb.append('\t').append(String.format(Locale.ROOT, "%.4f", d));
            }
            sb.append('\t').append(TSV_VERSION).append('\t').append(l.encoded()).append('\n');
        }
        Files.writeString(file, sb, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    static List<Result> readTsv(Path file) throws IOException {
        List<Result> results = new ArrayList<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split("\t");
            String where = file + " line " + (i + 1);
            if (f.length == V1_COLUMNS) {
                throw new IllegalArgumentException(where + " is a v1 results line (a percentile curve, written "
                        + "before the bench kept HdrHistograms): it cannot be merged; run the scenario again to "
                        + "write " + TSV_VERSION + " lines");
            }
            if (f.length != SUMMARY_COLUMNS + 2 || !f[SUMMARY_COLUMNS].equals(TSV_VERSION)) {
                throw new IllegalArgumentException(where + " is not a bench results line (" + TSV_VERSION
                        + ": " + (SUMMARY_COLUMNS + 2) + " tab-separated columns, the 15th '" + TSV_VERSION + "')");
            }
            LatencyStats l = LatencyStats.decode(f[SUMMARY_COLUMNS + 1]);
            results.add(new Result(f[0], f[1], f[2], Long.parseLong(f[3]), Integer.parseInt(f[4]), l,
                    Double.parseDouble(f[11]), Double.parseDouble(f[12]), Double.parseDouble(f[13])));
        }
        return results;
    }
}
