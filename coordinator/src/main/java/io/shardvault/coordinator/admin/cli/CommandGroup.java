package io.shardvault.coordinator.admin.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * A group of admin commands ({@code admin pod ...}, {@code admin keys ...}): its subcommands reach the cluster
 * through {@link #root}; the group named alone is a usage error that lists them.
 */
abstract class CommandGroup implements Runnable {
    @ParentCommand
    AdminCli root;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw missingSubcommand(spec);
    }

    /** A usage error naming {@code spec}'s subcommands, as picocli knows them (so the list cannot go stale). */
    static ParameterException missingSubcommand(CommandSpec spec) {
        String which = spec.parent() == null ? "name a command: " : "name one of the " + spec.name() + " commands: ";
        return new ParameterException(spec.commandLine(), which
                + String.join(", ", spec.subcommands().keySet().stream().filter(n -> !n.equals("help")).toList()));
    }
}
