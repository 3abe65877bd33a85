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
 * {@code bench combine} merges. TSV layout, one result per line: label, scenario, op, size, clients, count,
 * mean, p50, p90, p99, max (ms), objects/s, MB/s, total s, then the latency curve at
 * {@link LatencyStats#CURVE_PERCENTILES} (ms), tab-separated.
 */
final class Report {
    private Report() {
    }

    static void printTable(PrintStream out, List<Result> results) {
        out.printf(Locale.ROOT, "%-14s %-10s %-6s %8s %7s %7s %9s %9s %9s %9s %9s %9s %9s%n", "config", "scenario",
                "op", "size", "clients", "count", "mean ms", "p50 ms", "p90 ms", "p99 ms", "obj/s", "MB/s",
                "total s");
        for (Result r : results) {
            LatencyStats l = r.latency();
            out.printf(Locale.ROOT, "%-14s %-10s %-6s %8s %7d %7d %9.2f %9.2f %9.2f %9.2f %9.1f %9.1f %9.2f%n",
                    r.label(), r.scenario(), r.op(), Sizes.format(r.sizeBytes()), r.clients(), l.count(), l.meanMs(),
                    l.p50Ms(), l.p90Ms(), l.p99Ms(), r.objectsPerSecond(), r.megabytesPerSecond(),
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
                    + "\"p90Ms\": %.3f, \"p99Ms\": %.3f, \"maxMs\": %.3f, \"objectsPerSecond\": %.3f, "
                    + "\"megabytesPerSecond\": %.3f, \"totalSeconds\": %.3f}",
                    escape(r.label()), r.scenario(), r.op(), r.sizeBytes(), r.clients(), l.count(), l.meanMs(),
                    l.p50Ms(), l.p90Ms(), l.p99Ms(), l.maxMs(), r.objectsPerSecond(), r.megabytesPerSecond(),
                    r.totalSeconds()));
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
            for (double d : l.curveMs()) {
                sb.append('\t').append(String.format(Locale.ROOT, "%.4f", d));
            }
            sb.append('\n');
        }
        Files.writeString(file, sb, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    static List<Result> readTsv(Path file) throws IOException {
        List<Result> results = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split("\t");
            double[] curve = new double[LatencyStats.CURVE_PERCENTILES.length];
            for (int i = 0; i < curve.length; i++) {
                curve[i] = Double.parseDouble(f[14 + i]);
            }
            LatencyStats l = new LatencyStats(Long.parseLong(f[5]), Double.parseDouble(f[6]),
                    Double.parseDouble(f[7]), Double.parseDouble(f[8]), Double.parseDouble(f[9]),
                    Double.parseDouble(f[10]), curve);
            results.add(new Result(f[0], f[1], f[2], Long.parseLong(f[3]), Integer.parseInt(f[4]), l,
                    Double.parseDouble(f[11]), Double.parseDouble(f[12]), Double.parseDouble(f[13])));
        }
        return results;
    }
}
