package io.shardvault.bench;

import java.util.List;
import java.util.concurrent.Callable;

/** A bench scenario (a picocli subcommand): runs against the endpoint its options name and returns its rows. */
interface Scenario extends Callable<List<Result>> {
    BenchOptions options();
}
