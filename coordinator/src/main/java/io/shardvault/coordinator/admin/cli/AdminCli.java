package io.shardvault.coordinator.admin.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * {@code shardvault admin}: talks JMX to a running coordinator (remote JMX must be enabled there)
 * and prints tables, or JSON with {@code --json}. Exit codes: 0 ok, 1 the operation failed (or the
 * credentials were refused), 2 usage, 3 the cluster is unreachable; failures print one line on
 * stderr, never a stack trace.
 *
 * <p>Credentials come from {@code --password-file} (its first {@code user password} line, or a password
 * for {@code --user}), else the environment ({@code SHARDVAULT_JMX_USER} or {@code --user}, and
 * {@code SHARDVAULT_JMX_PASSWORD}); never from the command line, where {@code ps} shows them. The address comes from {@code --jmx}, else
 * {@code SHARDVAULT_JMX}, else 127.0.0.1:9010.
 */
@Command(name = "admin", mixinStandardHelpOptions = true,
        description = "Administers a running shardvault cluster over JMX.",
        subcommands = {StatusCommand.class, AccountsCommand.class, BucketsCommand.class, KeysCommand.class, PodCommand.class,
            StashCommand.class, RepairCommand.class, CollectCommand.class, CatalogCommand.class, InitCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:ok", "1:the operation failed or the credentials were refused", "2:usage",
                "3:the cluster is unreachable"})
public final class AdminCli implements Runnable {

    @Spec
    private CommandSpec spec;

    @Option(names = "--jmx", paramLabel = "HOST:PORT", scope = ScopeType.INHERIT,
            defaultValue = "${env:SHARDVAULT_JMX:-127.0.0.1:9010}",
            description = "The coordinator's remote JMX address (default: $SHARDVAULT_JMX or ${DEFAULT-VALUE}).")
    String jmx;

    @Option(names = "--user", paramLabel = "USER", scope = ScopeType.INHERIT,
            defaultValue = "${env:SHARDVAULT_JMX_USER}", description = "JMX user (default: $SHARDVAULT_JMX_USER).")
    String user;

    // No --password: a password on the command line is visible in ps to every user of the host.
    @Option(names = "--password-file", paramLabel = "FILE", scope = ScopeType.INHERIT,
            description = "A file whose first line is 'user password' (or just the password, with --user); "
                    + "else $SHARDVAULT_JMX_PASSWORD.")
    Path passwordFile;

    @Option(names = "--tls", scope = ScopeType.INHERIT,
            description = "Connect with TLS (trust the server's certificate with -Djavax.net.ssl.trustStore).")
    boolean tls;

    @Option(names = "--json", scope = ScopeType.INHERIT, description = "Print JSON instead of tables.")
    boolean json;

    @Option(names = "--timeout", paramLabel = "SECONDS", scope = ScopeType.INHERIT, defaultValue = "15",
            description = "How long to wait for the connection (default: ${DEFAULT-VALUE} s).")
    int timeoutSeconds;

    public static void main(String[] args) {
        System.exit(newCommandLine().execute(args));
    }

    /** The command line, ready to {@code execute} (tests capture its output with setOut/setErr). */
    public static CommandLine newCommandLine() {
        CommandLine cli = new CommandLine(new AdminCli());
        cli.setExitCodeExceptionMapper(e -> e instanceof AdminException a ? a.exitCode()
                : e instanceof CommandLine.ParameterException ? ExitCodes.USAGE : ExitCodes.FAILED);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            int code = e instanceof AdminException a ? a.exitCode() : ExitCodes.FAILED;
            commandLine.getErr().println("shardvault admin: " + (e.getMessage() == null ? e.toString()
                    : e.getMessage()));
            commandLine.getErr().flush();
            return code;
        });
        return cli;
    }

    @Override
    public void run() {
        throw CommandGroup.missingSubcommand(spec);
    }

    /** What a command does with an open session. */
    interface Action {
        void run(JmxSession session, PrintWriter out) throws AdminException;
    }

    /** Opens a session, runs {@code action}, prints through the command line's writer. */
    int execute(Action action) throws AdminException {
        String[] credentials = credentials();
        try (JmxSession session = JmxSession.open(jmx, credentials[0], credentials[1], tls,
                Math.max(1, timeoutSeconds) * 1000L)) {
            PrintWriter out = spec.commandLine().getOut();
            action.run(session, out);
            out.flush();
        }
        return ExitCodes.OK;
    }

    private String[] credentials() throws AdminException {
        if (passwordFile != null) {
            try {
                for (String line : Files.readAllLines(passwordFile, StandardCharsets.UTF_8)) {
                    String t = line.strip();
                    if (t.isEmpty() || t.startsWith("#")) {
                        continue;
                    }
                    String[] parts = t.split("\\s+", 2);
                    return parts.length == 2 ? parts : new String[] {user, parts[0]};
                }
            } catch (IOException e) {
                throw new AdminException(ExitCodes.USAGE, "cannot read --password-file " + passwordFile + ": "
                        + e.getMessage());
            }
            throw new AdminException(ExitCodes.USAGE, "--password-file " + passwordFile + " holds no password");
        }
        return new String[] {user, System.getenv("SHARDVAULT_JMX_PASSWORD")};
    }
}
