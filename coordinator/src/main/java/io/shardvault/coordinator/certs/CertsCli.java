package io.shardvault.coordinator.certs;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code shardvault certs}: creates the cluster CA ({@code ca}) and issues service certificates
 * ({@code issue}) with {@link ClusterCa}. Prints what it wrote, never a key. Exit codes: 0 done (or
 * already there, kept), 1 refused or failed, 2 usage.
 */
@Command(name = "certs", mixinStandardHelpOptions = true,
        description = "Creates the cluster CA and issues service certificates (PEM) for mutual TLS between services.",
        subcommands = {CertsCli.Ca.class, CertsCli.Issue.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done, or already there and kept", "1:refused or failed", "2:usage"})
public final class CertsCli implements Runnable {
    @Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(newCommandLine().execute(args));
    }

    /** The command line, ready to {@code execute} (tests capture its output with setOut/setErr). */
    public static CommandLine newCommandLine() {
        CommandLine cli = new CommandLine(new CertsCli());
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println("shardvault certs: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            commandLine.getErr().flush();
            return 1;
        });
        return cli;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a command: ca or issue");
    }

    /** {@code certs ca --dir D}. */
    @Command(name = "ca", mixinStandardHelpOptions = true,
            description = "Creates the cluster CA (D/ca.crt, D/ca.key mode 0600); an existing CA is kept.")
    static final class Ca implements Callable<Integer> {
        @Spec
        private CommandLine.Model.CommandSpec spec;

        @Option(names = "--dir", required = true, paramLabel = "DIR", description = "Where the CA's files go.")
        Path dir;

        @Option(names = "--algorithm", defaultValue = "EC", paramLabel = "EC|RSA",
                description = "EC (P-256, the default) or RSA (3072 bits).")
        ClusterCa.Algorithm algorithm;

        @Option(names = "--force", description = "Replace an existing CA: every certificate it issued stops being trusted.")
        boolean force;

        @Override
        public Integer call() throws IOException {
            ClusterCa ca = new ClusterCa(dir, Clock.systemUTC());
            ClusterCa.Outcome outcome = ca.createCa(algorithm, force);
            spec.commandLine().getOut().println(switch (outcome) {
                case KEPT -> "cluster CA already in " + dir + ", kept (--force replaces it)";
                case CREATED -> "cluster CA created: " + ca.caCertificate() + " (tls.ca), its key "
                        + dir.resolve(ClusterCa.CA_KEY) + " (keep it off the service hosts)";
                case REPLACED -> "cluster CA REPLACED: " + ca.caCertificate() + "; issue every service's certificate again";
            });
            return 0;
        }
    }

    /** {@code certs issue NAME --dir D --san host-or-ip,...}. */
    @Command(name = "issue", mixinStandardHelpOptions = true,
            description = "Issues D/NAME.crt (chain) and D/NAME.key (mode 0600), signed by the CA in D, for TLS "
                    + "servers and clients; an identical certificate already there is kept, a different one refused.")
    static final class Issue implements Callable<Integer> {
        @Spec
        private CommandLine.Model.CommandSpec spec;

        @Parameters(paramLabel = "NAME", description = "The service's name (its files' names and the certificate's CN).")
        String name;

        @Option(names = "--dir", required = true, paramLabel = "DIR", description = "The CA's directory; the files go there.")
        Path dir;

        @Option(names = "--san", required = true, paramLabel = "HOST-OR-IP,...",
                description = "Host names and IP addresses peers dial this service at (DNS and IP SANs).")
        String sans;

        @Option(names = "--algorithm", defaultValue = "EC", paramLabel = "EC|RSA",
                description = "The service key: EC (P-256, the default) or RSA (3072 bits).")
        ClusterCa.Algorithm algorithm;

        @Option(names = "--days", defaultValue = "825", paramLabel = "DAYS", description = "Validity (default: ${DEFAULT-VALUE}).")
        int days;

        @Option(names = "--force", description = "Replace an existing certificate and key.")
        boolean force;

        @Override
        public Integer call() throws IOException {
            if (days < 1) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--days must be >= 1: " + days);
            }
            ClusterCa ca = new ClusterCa(dir, Clock.systemUTC());
            ClusterCa.Outcome outcome = ca.issue(name, ClusterCa.splitSans(sans), algorithm, Duration.ofDays(days), force);
            spec.commandLine().getOut().println((outcome == ClusterCa.Outcome.KEPT ? "kept " : "issued ")
                    + ca.certificate(name) + " (tls.certificate) and " + ca.key(name) + " (tls.key) for " + sans);
            return 0;
        }
    }
}
