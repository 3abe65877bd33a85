package io.shardvault.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Merges TSV results files from several runs into one table and one set of charts, and, given the labels of
 * the three stash-comparison configurations, prints the issue #11 goals as ratios. Rows of the same
 * configuration (label, scenario, op, size, clients), from one file or several, become one row whose
 * latencies are the union of theirs (their histograms added).
 */
@Command(name = "combine", mixinStandardHelpOptions = true,
        description = "Merge --out TSV files into one table and chart set; runs of one configuration merge into one row")
public final class CombineCommand implements Callable<List<Result>> {
    @Parameters(paramLabel = "FILE", description = "TSV files written with --out")
    List<Path> files;

    @Option(names = "--plot", paramLabel = "DIR", description = "Write PNG charts into DIR")
    Path plotDir;

    @Option(names = "--goals", split = ",", paramLabel = "STASH,NOSTASH,DISK",
            description = "Labels of: simulated HDD with stash, simulated HDD without, real disk without")
    List<String> goals;

    @Override
    public List<Result> call() throws Exception {
        List<Result> all = new ArrayList<>();
        for (Path f : files) {
            for (Result r : Report.readTsv(f)) {
                add(all, r);
            }
        }
        Report.printTable(System.out, all);
        if (plotDir != null) {
            for (Path p : ChartWriter.write(plotDir, all)) {
                System.out.println("chart: " + p);
            }
        }
        if (goals != null && goals.size() == 3) {
            printGoals(all, goals.get(0), goals.get(1), goals.get(2));
        }
        return all;
    }

    /** Adds {@code r} to {@code merged}, merged into the row of its configuration if there is one. */
    static void add(List<Result> merged, Result r) {
        for (int i = 0; i < merged.size(); i++) {
            if (merged.get(i).sameConfiguration(r)) {
                merged.set(i, merged.get(i).merge(r));
                return;
            }
        }
        merged.add(r);
    }

    private static void printGoals(List<Result> all, String stash, String noStash, String disk) {
        double s = find(all, stash, "latency", 256 << 10, 1).map(r -> r.latency().p50Ms()).orElse(Double.NaN);
        double n = find(all, noStash, "latency", 256 << 10, 1).map(r -> r.latency().p50Ms()).orElse(Double.NaN);
        double d = find(all, disk, "latency", 256 << 10, 1).map(r -> r.latency().p50Ms()).orElse(Double.NaN);
        double ts = find(all, stash, "throughput", 1 << 20, 32).map(Result::objectsPerSecond).orElse(Double.NaN);
        double tn = find(all, noStash, "throughput", 1 << 20, 32).map(Result::objectsPerSecond).orElse(Double.NaN);
        System.out.println();
        System.out.printf(Locale.ROOT, "goal 1: p50 PUT 256KiB stash/no-stash (simulated HDD) = %.3f (goal <= 0.333): %s%n",
                s / n, s / n <= 1.0 / 3 ? "MET" : "NOT MET");
        System.out.printf(Locale.ROOT, "goal 2: p50 PUT 256KiB stash (simulated HDD)/real disk no-stash = %.3f (goal <= 1.5): %s%n",
                s / d, s / d <= 1.5 ? "MET" : "NOT MET");
        System.out.printf(Locale.ROOT, "goal 3: PUT 1MiB x32 throughput stash/no-stash (simulated HDD) = %.3f (goal >= 2): %s%n",
                ts / tn, ts / tn >= 2 ? "MET" : "NOT MET");
    }

    private static Optional<Result> find(List<Result> all, String label, String scenario, long size, int clients) {
        return all.stream().filter(r -> r.label().equals(label) && r.scenario().equals(scenario)
                && r.op().equals("PUT") && r.sizeBytes() == size && r.clients() == clients).findFirst();
    }
}
