package io.shardvault.bench;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code shardvault bench}: runs one scenario against an S3 endpoint and prints a table (or JSON), optionally
 * appending a TSV results file and writing PNG charts. Run with
 * {@code java -cp jmh/target/benchmarks.jar io.shardvault.bench.BenchMain <scenario> [options]}.
 */
@Command(name = "shardvault bench", mixinStandardHelpOptions = true,
        description = "S3 benchmark tool: latency, throughput, ttfb, backup, mixed; combine merges runs",
        subcommands = {LatencyScenario.class, ThroughputScenario.class, TtfbScenario.class, BackupScenario.class,
            MixedScenario.class, CombineCommand.class})
public final class BenchMain implements Callable<Integer> {

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns the exit code (tests call this instead of {@link #main}). */
    public static int run(String... args) {
        CommandLine cl = new CommandLine(new BenchMain()).setCaseInsensitiveEnumValuesAllowed(true);
        cl.setExecutionStrategy(parse -> {
            List<CommandLine> parsed = parse.asCommandLineList();
            CommandLine last = parsed.get(parsed.size() - 1);
            if (last.isUsageHelpRequested() || last.isVersionHelpRequested()) {
                return new CommandLine.RunLast().execute(parse);
            }
            Object cmd = last.getCommand();
            try {
                if (cmd instanceof CombineCommand combine) {
                    combine.call();
                    return 0;
                }
                if (cmd instanceof Scenario scenario) {
                    emit(scenario.options(), scenario.call());
                    return 0;
                }
            } catch (IllegalArgumentException | IllegalStateException e) {
                // A wrong option or input file, or a run that cannot go on: the message says what to do.
                last.getErr().println("bench: " + (e.getMessage() != null ? e.getMessage() : e));
                return 1;
            } catch (Exception e) {
                throw new CommandLine.ExecutionException(last, "bench failed: " + e, e);
            }
            last.usage(System.out);
            return 2;
        });
        return cl.execute(args);
    }

    private static void emit(BenchOptions o, List<Result> results) throws java.io.IOException {
        if (o.json) {
            Report.printJson(System.out, results);
        } else {
            Report.printTable(System.out, results);
        }
        if (o.outFile != null) {
            Report.appendTsv(o.outFile, results);
        }
        if (o.plotDir != null) {
            for (java.nio.file.Path p : ChartWriter.write(o.plotDir, results)) {
                System.err.println("chart: " + p);
            }
        }
    }

    @Override
    public Integer call() {
        new CommandLine(this).usage(System.out);
        return 2;
    }
}
