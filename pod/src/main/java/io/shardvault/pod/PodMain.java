package io.shardvault.pod;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.Settings;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.common.rpc.RpcTransportConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * The pod process: {@code pod [--config FILE]... [--set key=value]...}. Each {@code --config}
 * file is one pod instance (HOCON, keys of {@link PodConfigKeys}); without one, a single instance
 * runs on defaults. {@code --set} overrides apply to every instance. Prints one line
 * {@code pod <name> listening <host:port>} per instance once all have recovered and listen, then
 * runs until terminated.
 */
@Command(name = "pod", mixinStandardHelpOptions = true,
        description = "Runs one or more shardvault storage pod instances.")
public final class PodMain implements Callable<Integer> {

    @Option(names = {"-c", "--config"}, paramLabel = "FILE", description = "A pod instance's config file; repeat for more instances.")
    private List<Path> configs = new ArrayList<>();

    @Option(names = {"-s", "--set"}, paramLabel = "KEY=VALUE", description = "A setting for every instance; overrides the files.")
    private List<String> overrides = new ArrayList<>();

    public static void main(String[] args) {
        System.exit(new CommandLine(new PodMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        List<Settings> perInstance = new ArrayList<>();
        try {
            if (configs.isEmpty()) {
                perInstance.add(Settings.load(Optional.empty(), overrides));
            }
            for (Path file : configs) {
                perInstance.add(Settings.load(Optional.of(file), overrides));
            }
            List<PodConfig> pods = new ArrayList<>();
            for (Settings s : perInstance) {
                s.rejectUnknown(PodConfigKeys.all());
                pods.add(PodConfig.from(s));
            }
            Settings first = perInstance.get(0);
            // Meters stay in memory here: no JMX or Prometheus registry is on the classpath yet.
            PodHost host = PodHost.start(pods, RpcTransportConfig.from(first), RpcClientConfig.from(first),
                    new SimpleMeterRegistry());
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                host.close();
                stopped.countDown();
            }, "pod-shutdown"));
            for (PodServer p : host.pods()) {
                System.out.println("pod " + p.config().name() + " listening " + p.localAddress().getHostString() + ":"
                        + p.localAddress().getPort());
            }
            System.out.flush();
            stopped.await();
            return 0;
        } catch (ConfigException e) {
            System.err.println("pod: " + e.getMessage());
            return 2;
        }
    }
}
