package io.shardvault.stash;

import io.shardvault.common.ReleaseVersion;
import io.shardvault.common.admin.AdminConfig;
import io.shardvault.common.admin.AdminConfigKeys;
import io.shardvault.common.admin.AdminServer;
import io.shardvault.common.admin.Readiness;
import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.ConfigKey;
import io.shardvault.common.config.ConfigReference;
import io.shardvault.common.config.HostPort;
import io.shardvault.common.config.ListenerGuard;
import io.shardvault.common.config.TlsConfigKeys;
import io.shardvault.common.config.TlsSettings;
import io.shardvault.common.config.Settings;
import io.shardvault.common.metrics.ProcessMetrics;
import io.shardvault.common.rpc.RpcTransport;
import io.shardvault.common.rpc.RpcTransportConfig;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The stash server program. Prints {@code admin listening on host:port} as soon as its admin HTTP
 * port ({@code /metrics}, {@code /health/live}, {@code /health/ready}; setting {@code admin.bind})
 * serves, then {@code stash listening on host:port} on standard output once the stash is open and
 * serves (from then on {@code /health/ready} answers 200), then runs until it is stopped (SIGTERM
 * or SIGINT close it cleanly; SIGKILL loses nothing acknowledged).
 *
 * <pre>
 *  java -cp ... io.shardvault.stash.StashMain --bind 127.0.0.1:7400 --data /ssd/stash \
 *       [--config stash.conf] [--set stash.capacityBytes=64GiB ...]
 * </pre>
 * Precedence: {@code --bind} and {@code --data} over {@code --set}, over the file, over defaults.
 * Unknown settings are rejected. Exit status: 0 after a clean stop, 2 on bad arguments or
 * settings, 1 when the server cannot start.
 */
@Command(name = "stash", mixinStandardHelpOptions = true, versionProvider = ReleaseVersion.class,
        description = "Runs a shardvault stash server: synced shard copies in RocksDB.")
public final class StashMain implements Callable<Integer> {

    @Option(names = "--config", paramLabel = "FILE", description = "A HOCON settings file.")
    private Path configFile;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "A setting, overriding the file; repeatable.")
    private List<String> overrides = new ArrayList<>();

    @Option(names = "--bind", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:7400",
            description = "Where to listen; port 0 picks a free port. Default: ${DEFAULT-VALUE}.")
    private String bind;

    @Option(names = "--data", paramLabel = "DIR", description = "The RocksDB directory (stash.dataDir).")
    private Path dataDir;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line, its usage message ending with every key a stash server reads. */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new StashMain());
        cli.getCommandSpec().usageMessage().footer(ConfigReference.helpFooter(keys()));
        return cli;
    }

    /** Every key a stash server reads (any other setting is refused). */
    public static List<ConfigKey<?>> keys() {
        List<ConfigKey<?>> known = new ArrayList<>(StashConfigKeys.all());
        known.addAll(AdminConfigKeys.all());
        known.addAll(ListenerGuard.keys());
        known.addAll(TlsConfigKeys.all());
        return List.copyOf(known);
    }

    @Override
    public Integer call() throws Exception {
        Settings settings;
        StashConfig config;
        AdminConfig adminConfig;
        InetSocketAddress bindAddress;
        try {
            settings = Settings.load(Optional.ofNullable(configFile), overrides);
            settings.rejectUnknown(keys());
            config = StashConfig.from(settings);
            adminConfig = AdminConfig.from(settings);
            if (dataDir != null) {
                config = config.withDataDir(dataDir);
            }
            bindAddress = HostPort.parse(bind);
            // Without TLS, whoever reaches the port can read and purge; with it, only the cluster CA's certificates.
            ListenerGuard.from(settings).admit("--bind", bindAddress, TlsSettings.from(settings).isPresent());
        } catch (ConfigException | IllegalArgumentException e) {
            System.err.println("stash: " + e.getMessage());
            return 2;
        }
        ProcessMetrics metrics = ProcessMetrics.create("stash", ProcessMetrics.hostName());
        // Ready once the database is open and serving; not ready again once shutdown begins.
        AtomicReference<StashServer> serving = new AtomicReference<>();
        AdminServer admin;
        try {
            admin = AdminServer.start(adminConfig, metrics, () -> serving.get() != null ? Readiness.ready()
                    : Readiness.notReady("stash not serving (opening the database, or stopping)"));
        } catch (Exception e) {
            metrics.close();
            System.err.println("stash: cannot start the admin port on " + adminConfig.bind() + ": " + e.getMessage());
            return 1;
        }
        InetSocketAddress adminAddress = admin.localAddress();
        System.out.println("admin listening on " + adminAddress.getHostString() + ":" + adminAddress.getPort());
        System.out.flush();
        RpcTransport transport = RpcTransport.create(RpcTransportConfig.from(settings));
        StashServer server;
        try {
            server = StashServer.start(transport, config, bindAddress, metrics.registry());
        } catch (Exception e) {
            transport.close();
            admin.close();
            metrics.close();
            System.err.println("stash: cannot start: " + e.getMessage());
            e.printStackTrace(System.err);
            return 1;
        }
        serving.set(server);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            serving.set(null);
            server.close();
            transport.close();
            admin.close();
            metrics.close();
            stopped.countDown();
        }, "stash-shutdown"));
        InetSocketAddress local = server.localAddress();
        System.out.println("stash listening on " + local.getHostString() + ":" + local.getPort());
        System.out.flush();
        stopped.await();
        return 0;
    }

}
