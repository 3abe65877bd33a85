package io.shardvault.pod;

import io.shardvault.common.ReleaseVersion;
import io.shardvault.common.admin.AdminConfig;
import io.shardvault.common.admin.AdminConfigKeys;
import io.shardvault.common.admin.AdminServer;
import io.shardvault.common.admin.Readiness;
import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.ConfigKey;
import io.shardvault.common.config.ConfigReference;
import io.shardvault.common.config.ListenerGuard;
import io.shardvault.common.config.TlsConfigKeys;
import io.shardvault.common.config.TlsSettings;
import io.shardvault.common.config.Settings;
import io.shardvault.common.jmx.JmxRemoteConfigKeys;
import io.shardvault.common.metrics.ProcessMetrics;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.common.rpc.RpcTransportConfig;
import io.shardvault.pod.admin.PodHostAdmin;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The pod process: {@code pod [--config FILE]... [--set key=value]...}. Each {@code --config}
 * file is one pod instance (HOCON, keys of {@link PodConfigKeys}); without one, a single instance
 * runs on defaults. {@code --set} overrides apply to every instance. Prints
 * {@code admin listening on host:port} once the admin HTTP port ({@code /metrics},
 * {@code /health/live}, {@code /health/ready}; setting {@code admin.bind}, taken from the first
 * instance's settings) serves, then one line {@code pod <name> listening <host:port>} per instance
 * once all have recovered from the stash and listen (from then on {@code /health/ready} answers
 * 200, with a failed tome named in its body: {@link PodHost#readiness}), then runs until terminated.
 */
@Command(name = "pod", mixinStandardHelpOptions = true, versionProvider = ReleaseVersion.class,
        description = "Runs one or more shardvault storage pod instances.")
public final class PodMain implements Callable<Integer> {

    @Option(names = {"-c", "--config"}, paramLabel = "FILE", description = "A pod instance's config file; repeat for more instances.")
    private List<Path> configs = new ArrayList<>();

    @Option(names = {"-s", "--set"}, paramLabel = "KEY=VALUE", description = "A setting for every instance; overrides the files.")
    private List<String> overrides = new ArrayList<>();

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line, its usage message ending with every key a pod reads. */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new PodMain());
        cli.getCommandSpec().usageMessage().footer(ConfigReference.helpFooter(keys()));
        return cli;
    }

    /** Every key a pod process reads (any other setting is refused). */
    public static List<ConfigKey<?>> keys() {
        List<ConfigKey<?>> known = new ArrayList<>(PodConfigKeys.all());
        known.addAll(AdminConfigKeys.all());
        known.addAll(JmxRemoteConfigKeys.all());
        known.addAll(ListenerGuard.keys());
        known.addAll(TlsConfigKeys.all());
        return List.copyOf(known);
    }

    @Override
    public Integer call() throws Exception {
        List<Settings> perInstance = new ArrayList<>();
        List<PodConfig> pods = new ArrayList<>();
        AdminConfig adminConfig;
        try {
            if (configs.isEmpty()) {
                perInstance.add(Settings.load(Optional.empty(), overrides));
            }
            for (Path file : configs) {
                perInstance.add(Settings.load(Optional.of(file), overrides));
            }
            List<ConfigKey<?>> known = keys();
            for (Settings s : perInstance) {
                // PodConfig first: it explains a removed setting better than "unknown setting" would.
                PodConfig config = PodConfig.from(s);
                s.rejectUnknown(known);
                pods.add(config);
            }
            // The instances share one transport, so one TLS identity: each listener is what its file says.
            for (Settings s : perInstance) {
                if (!TlsSettings.from(s).equals(TlsSettings.from(perInstance.get(0)))) {
                    throw new ConfigException("pod settings from " + s.source() + ": " + TlsConfigKeys.all()
                            + " differ from " + perInstance.get(0).source() + "'s; the instances of a process share "
                            + "one TLS identity");
                }
            }
            adminConfig = AdminConfig.from(perInstance.get(0));
        } catch (ConfigException e) {
            System.err.println("pod: " + e.getMessage());
            return 2;
        }
        Settings first = perInstance.get(0);
        ProcessMetrics metrics = ProcessMetrics.create("pod", ProcessMetrics.hostName());
        // PodHost.start returns once every instance has recovered from the stash and listens.
        AtomicReference<PodHost> serving = new AtomicReference<>();
        AdminServer admin;
        try {
            admin = AdminServer.start(adminConfig, metrics, () -> {
                PodHost h = serving.get();
                return h != null ? h.readiness()
                        : Readiness.notReady("pods not serving (recovering from the stash, or stopping)");
            });
        } catch (Exception e) {
            metrics.close();
            System.err.println("pod: cannot start the admin port on " + adminConfig.bind() + ": " + e.getMessage());
            return 1;
        }
        System.out.println("admin listening on " + admin.localAddress().getHostString() + ":"
                + admin.localAddress().getPort());
        System.out.flush();
        PodHost host;
        try {
            host = PodHost.start(pods, RpcTransportConfig.from(first), RpcClientConfig.from(first), metrics.registry());
        } catch (Exception e) {
            admin.close();
            metrics.close();
            throw e;
        }
        serving.set(host);
        // The PodHost MXBean (purge queue, unflushed bytes, retryPurgesNow), remote when jmx.remote.enabled.
        PodHostAdmin podAdmin;
        try {
            podAdmin = PodHostAdmin.start(first, host);
        } catch (java.io.IOException e) {
            host.close();
            admin.close();
            metrics.close();
            System.err.println("pod: " + e.getMessage());
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            serving.set(null);
            podAdmin.close();
            host.close();
            admin.close();
            metrics.close();
            stopped.countDown();
        }, "pod-shutdown"));
        for (PodServer p : host.pods()) {
            System.out.println("pod " + p.config().name() + " listening " + p.localAddress().getHostString() + ":"
                    + p.localAddress().getPort());
        }
        System.out.flush();
        stopped.await();
        return 0;
    }
}
