package io.shardvault.stash;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.Settings;
import io.shardvault.common.rpc.RpcTransport;
import io.shardvault.common.rpc.RpcTransportConfig;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The stash server program. Prints {@code stash listening on host:port} on standard output once
 * it serves, then runs until it is stopped (SIGTERM or SIGINT close it cleanly; SIGKILL loses
 * nothing acknowledged).
 *
 * <pre>
 *  java -cp ... io.shardvault.stash.StashMain --bind 0.0.0.0:7400 --data /ssd/stash \
 *       [--config stash.conf] [--set stash.capacityBytes=64GiB ...]
 * </pre>
 * Precedence: {@code --bind} and {@code --data} over {@code --set}, over the file, over defaults.
 * Unknown settings are rejected. Exit status: 0 after a clean stop, 2 on bad arguments or
 * settings, 1 when the server cannot start.
 */
@Command(name = "stash", mixinStandardHelpOptions = true,
        description = "Runs a shardvault stash server: synced shard copies in RocksDB.")
public final class StashMain implements Callable<Integer> {

    @Option(names = "--config", paramLabel = "FILE", description = "A HOCON settings file.")
    private Path configFile;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "A setting, overriding the file; repeatable.")
    private List<String> overrides = new ArrayList<>();

    @Option(names = "--bind", paramLabel = "HOST:PORT", defaultValue = "0.0.0.0:7400",
            description = "Where to listen; port 0 picks a free port. Default: ${DEFAULT-VALUE}.")
    private String bind;

    @Option(names = "--data", paramLabel = "DIR", description = "The RocksDB directory (stash.dataDir).")
    private Path dataDir;

    public static void main(String[] args) {
        System.exit(new CommandLine(new StashMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Settings settings;
        StashConfig config;
        InetSocketAddress bindAddress;
        try {
            settings = Settings.load(Optional.ofNullable(configFile), overrides);
            settings.rejectUnknown(StashConfigKeys.all());
            config = StashConfig.from(settings);
            if (dataDir != null) {
                config = config.withDataDir(dataDir);
            }
            bindAddress = parseHostPort(bind);
        } catch (ConfigException | IllegalArgumentException e) {
            System.err.println("stash: " + e.getMessage());
            return 2;
        }
        RpcTransport transport = RpcTransport.create(RpcTransportConfig.from(settings));
        StashServer server;
        try {
            // Meters stay in this process's memory; publishing them (JMX, Prometheus) is the observability work.
            server = StashServer.start(transport, config, bindAddress, new SimpleMeterRegistry());
        } catch (Exception e) {
            transport.close();
            System.err.println("stash: cannot start: " + e.getMessage());
            e.printStackTrace(System.err);
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            transport.close();
            stopped.countDown();
        }, "stash-shutdown"));
        InetSocketAddress local = server.localAddress();
        System.out.println("stash listening on " + local.getHostString() + ":" + local.getPort());
        System.out.flush();
        stopped.await();
        return 0;
    }

    /** Parses {@code host:port}, {@code [v6]:port} or {@code :port} (all interfaces), without resolving. */
    static InetSocketAddress parseHostPort(String value) {
        int colon = value.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("--bind must be host:port, got '" + value + "'");
        }
        String host = value.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(value.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--bind port is not a number in '" + value + "'", e);
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--bind port out of range in '" + value + "'");
        }
        return host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
    }
}
