package io.shardvault.coordinator;

import io.shardvault.common.ReleaseVersion;
import io.shardvault.common.admin.AdminConfig;
import io.shardvault.common.admin.AdminConfigKeys;
import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.ConfigKey;
import io.shardvault.common.config.ConfigReference;
import io.shardvault.common.config.ListenerGuard;
import io.shardvault.common.config.TlsConfigKeys;
import io.shardvault.common.config.Settings;
import io.shardvault.common.erasure.ErasureConfigKeys;
import io.shardvault.common.jmx.JmxRemoteConfigKeys;
import io.shardvault.common.metrics.ProcessMetrics;
import io.shardvault.common.rpc.RpcConfigKeys;
import io.shardvault.coordinator.admin.CoordinatorAdminConfigKeys;
import io.shardvault.coordinator.audit.AuditLogConfig;
import io.shardvault.coordinator.audit.AuditLogConfigKeys;
import io.shardvault.coordinator.audit.AuditLogFile;
import io.shardvault.coordinator.catalog.CatalogConfigKeys;
import io.shardvault.coordinator.data.DataPathConfigKeys;
import io.shardvault.coordinator.collect.CollectConfigKeys;
import io.shardvault.coordinator.lifecycle.LifecycleConfigKeys;
import io.shardvault.coordinator.repair.PodRebuildConfigKeys;
import io.shardvault.coordinator.repair.RepairConfigKeys;
import io.shardvault.coordinator.repair.ScrubFindingsConfigKeys;
import io.shardvault.s3.S3ConfigKeys;
import io.shardvault.s3.sosapi.SosapiConfigKeys;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * The coordinator process: {@code coordinator [--config FILE] [--set key=value]...}. Prints
 * {@code admin listening on HOST:PORT} as soon as its admin HTTP port ({@code /metrics},
 * {@code /health/live}, {@code /health/ready}; setting {@code admin.bind}) serves, then
 * {@code coordinator S3 endpoint ready on http://HOST:PORT} once the catalog answers and the
 * endpoint listens, then runs until terminated; SIGTERM closes everything in order. Writes the S3 audit
 * log ({@link AuditLogFile}, settings {@code audit.*}) from before the endpoint listens until after it closed.
 * {@code --help} lists every setting it reads.
 */
@Command(name = "coordinator", mixinStandardHelpOptions = true, versionProvider = ReleaseVersion.class,
        description = "Runs a shardvault coordinator: the S3 endpoint, a catalog peer, and the write and read paths.")
public final class CoordinatorMain implements Callable<Integer> {

    @Option(names = {"-c", "--config"}, paramLabel = "FILE", description = "A HOCON settings file.")
    private Path config;

    @Option(names = {"-s", "--set"}, paramLabel = "KEY=VALUE", description = "A setting; overrides the file.")
    private List<String> overrides = new ArrayList<>();

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line, its usage message ending with every key the coordinator reads. */
    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new CoordinatorMain());
        cli.getCommandSpec().usageMessage().footer(ConfigReference.helpFooter(allKeys()));
        return cli;
    }

    /** Every key the coordinator reads, with its default and description. */
    public static List<ConfigKey<?>> allKeys() {
        List<ConfigKey<?>> keys = new ArrayList<>();
        keys.addAll(CoordinatorConfigKeys.all());
        keys.addAll(CoordinatorAdminConfigKeys.all());
        keys.addAll(JmxRemoteConfigKeys.all());
        keys.addAll(CatalogConfigKeys.all());
        keys.addAll(DataPathConfigKeys.all());
        keys.addAll(RepairConfigKeys.all());
        keys.addAll(ScrubFindingsConfigKeys.all());
        keys.addAll(CollectConfigKeys.all());
        keys.addAll(LifecycleConfigKeys.all());
        keys.addAll(PodRebuildConfigKeys.all());
        keys.addAll(ErasureConfigKeys.all());
        keys.addAll(RpcConfigKeys.all());
        keys.addAll(S3ConfigKeys.all());
        keys.addAll(AdminConfigKeys.all());
        keys.addAll(SosapiConfigKeys.all());
        keys.addAll(ListenerGuard.keys());
        keys.addAll(TlsConfigKeys.all());
        keys.addAll(AuditLogConfigKeys.all());
        return keys;
    }

    @Override
    public Integer call() throws Exception {
        Settings settings;
        AuditLogConfig auditConfig;
        try {
            settings = Settings.load(Optional.ofNullable(config), overrides);
            settings.rejectUnknown(allKeys());
            AdminConfig.from(settings);
            auditConfig = AuditLogConfig.from(settings);
        } catch (ConfigException e) {
            System.err.println("coordinator: " + e.getMessage());
            return 2;
        }
        AuditLogFile audit;
        CoordinatorProcess process;
        Coordinator coordinator;
        try {
            // Before the S3 endpoint exists: no request goes unrecorded.
            audit = AuditLogFile.start(auditConfig);
        } catch (java.io.IOException e) {
            System.err.println("coordinator: " + e.getMessage());
            return 1;
        }
        try {
            process = CoordinatorProcess.openAdmin(settings, ProcessMetrics.hostName());
        } catch (java.io.IOException e) {
            audit.close();
            System.err.println("coordinator: " + e.getMessage());
            return 1;
        }
        InetSocketAddress admin = process.adminAddress();
        System.out.println("admin listening on " + admin.getHostString() + ":" + admin.getPort());
        System.out.flush();
        try {
            coordinator = process.startCoordinator();
        } catch (ConfigException e) {
            process.close();
            audit.close();
            System.err.println("coordinator: " + e.getMessage());
            return 2;
        } catch (java.io.IOException | RuntimeException e) {
            process.close();
            audit.close();
            System.err.println("coordinator: cannot start: " + e.getMessage());
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            process.close();
            // After the S3 endpoint: the last requests' records are written before the file closes.
            audit.close();
            stopped.countDown();
        }, "coordinator-shutdown"));
        InetSocketAddress s3 = coordinator.s3Address();
        System.out.println("coordinator S3 endpoint ready on http://" + s3.getHostString() + ":" + s3.getPort());
        System.out.flush();
        stopped.await();
        return 0;
    }
}
