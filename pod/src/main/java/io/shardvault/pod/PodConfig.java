package io.shardvault.pod;

import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.HostPort;
import io.shardvault.common.config.ListenerGuard;
import io.shardvault.common.config.TlsSettings;
import io.shardvault.common.config.Settings;
import io.shardvault.common.rpc.RpcServerConfig;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The resolved, immutable settings of one pod instance (see {@link PodConfigKeys} for each).
 *
 * <table>
 *   <caption>Limits and defaults</caption>
 *   <tr><th>setting</th><th>default</th></tr>
 *   <tr><td>flushInterval</td><td>250 ms</td></tr>
 *   <tr><td>flushBatchShards</td><td>512 per tome</td></tr>
 *   <tr><td>maxUnflushedBytes</td><td>256 MiB, then buffered writes become durable</td></tr>
 *   <tr><td>purgeSegmentBytes</td><td>8 MiB</td></tr>
 *   <tr><td>purgeBatchSize</td><td>512 events</td></tr>
 *   <tr><td>purgeRetryMin / Max</td><td>100 ms / 30 s</td></tr>
 *   <tr><td>purgeLinger</td><td>2 s, unless a full batch waits</td></tr>
 *   <tr><td>recoveryTimeout</td><td>10 min</td></tr>
 *   <tr><td>scrubBytesPerSecond</td><td>8 MiB/s; 0 turns scrubbing off</td></tr>
 *   <tr><td>scrubInterval</td><td>24 h from one pass's start to the next's, at least</td></tr>
 *   <tr><td>scrubNice</td><td>10 (and best-effort I/O level 7); 0 leaves the scrub thread's priority alone</td></tr>
 *   <tr><td>openShardFiles</td><td>512 files kept open for reads; 0 keeps none</td></tr>
 * </table>
 */
public record PodConfig(String name, InetSocketAddress bind, Path stateDir, List<TomeConfig> tomes,
                        Duration flushInterval,
                        int flushBatchShards, long maxUnflushedBytes, long purgeSegmentBytes, int purgeBatchSize,
                        Duration purgeRetryMin, Duration purgeRetryMax, Duration purgeSendTimeout,
                        Duration purgeLinger, Duration recoveryTimeout, long simulatedHddSeed, RpcServerConfig rpc,
                        long scrubBytesPerSecond, Duration scrubInterval, int scrubNice, int openShardFiles) {
    public PodConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(stateDir, "stateDir");
        tomes = List.copyOf(tomes);
        if (tomes.isEmpty()) {
            throw new IllegalArgumentException("a pod needs at least one tome");
        }
        Set<Path> distinct = new HashSet<>();
        for (TomeConfig t : tomes) {
            if (!distinct.add(t.directory().toAbsolutePath().normalize())) {
                throw new IllegalArgumentException("tome " + t.directory() + " is listed twice");
            }
        }
        Objects.requireNonNull(purgeLinger, "purgeLinger");
        Objects.requireNonNull(rpc, "rpc");
        if (scrubBytesPerSecond < 0) {
            throw new IllegalArgumentException("scrubBytesPerSecond must be >= 0: " + scrubBytesPerSecond);
        }
        Objects.requireNonNull(scrubInterval, "scrubInterval");
        if (scrubNice < 0 || scrubNice > 19) {
            throw new IllegalArgumentException("scrubNice must be in 0..19: " + scrubNice);
        }
        if (openShardFiles < 0) {
            throw new IllegalArgumentException("openShardFiles must be >= 0: " + openShardFiles);
        }
    }

    /**
     * Reads and validates every pod and RPC key.
     *
     * @throws ConfigException also for a setting the pod no longer takes ({@link PodConfigKeys#REMOVED})
     */
    public static PodConfig from(Settings s) {
        for (Map.Entry<String, String> removed : new TreeMap<>(PodConfigKeys.REMOVED).entrySet()) {
            if (s.isSet(removed.getKey())) {
                throw new ConfigException("pod settings from " + s.source() + ": " + removed.getKey()
                        + " is no longer a pod setting: " + removed.getValue());
            }
        }
        try {
            List<TomeConfig> tomes = new ArrayList<>();
            List<String> dirs = splitList(s.get(PodConfigKeys.TOMES));
            Set<Integer> simulated = simulatedTomes(s.get(PodConfigKeys.SIMULATED_HDD), dirs.size());
            for (int i = 0; i < dirs.size(); i++) {
                tomes.add(new TomeConfig(Path.of(dirs.get(i)), simulated.contains(i)));
            }
            InetSocketAddress bind = HostPort.parse(s.get(PodConfigKeys.BIND));
            ListenerGuard.from(s).admit(PodConfigKeys.BIND.name(), bind, TlsSettings.from(s).isPresent());
            return new PodConfig(s.get(PodConfigKeys.NAME), bind,
                    s.get(PodConfigKeys.STATE_DIR), tomes, s.get(PodConfigKeys.FLUSH_INTERVAL),
                    s.get(PodConfigKeys.FLUSH_BATCH_SHARDS), s.get(PodConfigKeys.MAX_UNFLUSHED_BYTES),
                    s.get(PodConfigKeys.PURGE_SEGMENT_BYTES), s.get(PodConfigKeys.PURGE_BATCH),
                    s.get(PodConfigKeys.PURGE_RETRY_MIN), s.get(PodConfigKeys.PURGE_RETRY_MAX),
                    s.get(PodConfigKeys.PURGE_SEND_TIMEOUT), s.get(PodConfigKeys.PURGE_LINGER),
                    s.get(PodConfigKeys.RECOVERY_TIMEOUT),
                    s.get(PodConfigKeys.SIMULATED_HDD_SEED), RpcServerConfig.from(s),
                    s.get(PodConfigKeys.SCRUB_RATE), s.get(PodConfigKeys.SCRUB_INTERVAL),
                    s.get(PodConfigKeys.SCRUB_NICE), s.get(PodConfigKeys.OPEN_SHARD_FILES));
        } catch (IllegalArgumentException e) {
            throw new ConfigException("pod settings from " + s.source() + ": " + e.getMessage(), e);
        }
    }

    private static List<String> splitList(String value) {
        List<String> out = new ArrayList<>();
        if (value.trim().equalsIgnoreCase("none")) {
            return out;
        }
        for (String part : value.split(",")) {
            if (!part.isBlank()) {
                out.add(part.trim());
            }
        }
        return out;
    }

    private static Set<Integer> simulatedTomes(String value, int tomes) {
        Set<Integer> out = new HashSet<>();
        if (value.trim().equalsIgnoreCase("all")) {
            for (int i = 0; i < tomes; i++) {
                out.add(i);
            }
            return out;
        }
        for (String part : splitList(value)) {
            int i = Integer.parseInt(part);
            if (i < 0 || i >= tomes) {
                throw new IllegalArgumentException("pod.simulatedHdd.tomes names tome " + i + " of " + tomes);
            }
            out.add(i);
        }
        return out;
    }

}
