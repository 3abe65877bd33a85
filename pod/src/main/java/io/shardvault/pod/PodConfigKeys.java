package io.shardvault.pod;

import io.shardvault.common.config.ConfigKey;
import io.shardvault.common.rpc.RpcConfigKeys;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The settings of one pod instance. Lists are comma-separated strings; {@code none} means empty. */
public final class PodConfigKeys {
    private PodConfigKeys() {
    }

    public static final ConfigKey<String> NAME = ConfigKey.ofString("pod.name", "pod",
            "The instance's name in logs and metric tags.");
    public static final ConfigKey<String> BIND = ConfigKey.ofString("pod.bind", "127.0.0.1:0",
            "host:port the instance listens on; port 0 picks a free port.");
    public static final ConfigKey<Path> STATE_DIR = ConfigKey.ofPath("pod.stateDir", Path.of("pod-state"),
            "The instance's own state: the durable purge queue, its assignment (slots, stash servers) and "
                    + "failed-tome records. Not on a tome.");
    public static final ConfigKey<String> TOMES = ConfigKey.ofString("pod.tomes", "tome0",
            "Comma-separated tome directories, one per disk. The order fixes shard placement: never reorder.");
    public static final ConfigKey<String> SIMULATED_HDD = ConfigKey.ofString("pod.simulatedHdd.tomes", "none",
            "Tomes whose fsyncs model a 7,200 RPM drive (a benchmark setting): none, all, or comma-separated "
                    + "tome indices.");
    public static final ConfigKey<Integer> SIMULATED_HDD_SEED = ConfigKey.ofInt("pod.simulatedHdd.seed", 7200,
            Integer.MIN_VALUE, Integer.MAX_VALUE, "Seed of the simulated drives' rotational delays (tome i uses seed+i).");
    public static final ConfigKey<Duration> FLUSH_INTERVAL = ConfigKey.ofDuration("pod.flush.interval",
            Duration.ofMillis(250), Duration.ofMillis(1), Duration.ofMinutes(10),
            "How often the flusher fsyncs buffered shards (sooner when a batch's worth of bytes waits). Each "
                    + "round also syncs the new files' directories and appends one synced purge-queue record, "
                    + "so rounds that carry more shards cost fewer syncs per shard; waiting only keeps the "
                    + "stash copies of acknowledged shards a little longer.");
    public static final ConfigKey<Integer> FLUSH_BATCH_SHARDS = ConfigKey.ofInt("pod.flush.batchShards", 512, 1,
            1_000_000, "Most shards one flusher round fsyncs per tome.");
    public static final ConfigKey<Long> MAX_UNFLUSHED_BYTES = ConfigKey.ofBytes("pod.flush.maxUnflushedBytes",
            256L << 20, 1L << 16, 1L << 40,
            "Beyond this many unflushed bytes, buffered writes are made durable before their ack (backpressure).");
    public static final ConfigKey<Long> PURGE_SEGMENT_BYTES = ConfigKey.ofBytes("pod.purge.segmentBytes", 8L << 20,
            4L << 10, 1L << 30, "Size at which the purge queue starts a new segment file.");
    public static final ConfigKey<Integer> PURGE_BATCH = ConfigKey.ofInt("pod.purge.batchSize", 512, 1, 100_000,
            "Most purge events the sender reads and delivers at once.");
    public static final ConfigKey<Duration> PURGE_RETRY_MIN = ConfigKey.ofDuration("pod.purge.retry.min",
            Duration.ofMillis(100), Duration.ofMillis(1), Duration.ofMinutes(10),
            "First backoff after a failed purge delivery; doubles up to pod.purge.retry.max.");
    public static final ConfigKey<Duration> PURGE_RETRY_MAX = ConfigKey.ofDuration("pod.purge.retry.max",
            Duration.ofSeconds(30), Duration.ofMillis(1), Duration.ofHours(1),
            "Longest backoff between purge delivery attempts.");
    public static final ConfigKey<Duration> PURGE_SEND_TIMEOUT = ConfigKey.ofDuration("pod.purge.sendTimeout",
            Duration.ofSeconds(10), Duration.ofMillis(10), Duration.ofHours(1),
            "How long one purge delivery may take before it counts as failed.");
    public static final ConfigKey<Duration> PURGE_LINGER = ConfigKey.ofDuration("pod.purge.linger",
            Duration.ofSeconds(2), Duration.ZERO, Duration.ofMinutes(10),
            "How long the oldest purge event may wait for more to share its delivery (unless a full batch "
                    + "waits). Each delivery costs a stash commit and a checkpoint sync here; waiting only keeps "
                    + "stash copies of already durable shards a little longer.");
    public static final ConfigKey<Duration> RECOVERY_TIMEOUT = ConfigKey.ofDuration("pod.recovery.timeout",
            Duration.ofMinutes(10), Duration.ZERO, Duration.ofDays(1),
            "How long start-up recovery retries an unreachable stash before the instance fails to start.");
    public static final ConfigKey<Long> SCRUB_RATE = ConfigKey.ofBytes("pod.scrub.bytesPerSecond", 8L << 20, 0,
            1L << 40, "Shard bytes the scrubber reads and checks against their CRC32C per second at most; 0 turns "
                    + "scrubbing off. One thread per process scrubs all its instances in turn, each at its own rate.");
    public static final ConfigKey<Duration> SCRUB_INTERVAL = ConfigKey.ofDuration("pod.scrub.interval",
            Duration.ofHours(24), Duration.ofMillis(1), Duration.ofDays(365),
            "Least time from the start of one scrub pass to the start of the next; a pass that takes longer is "
                    + "followed at once by the next.");
    public static final ConfigKey<Integer> SCRUB_NICE = ConfigKey.ofInt("pod.scrub.nice", 10, 0, 19,
            "The scrub thread's nice value (1..19), with the lowest best-effort I/O priority beside it, so that "
                    + "it yields the CPU and the disk to requests; 0 leaves it at the process's priority. One thread "
                    + "scrubs every instance of a process: all of them must give the same value.");
    public static final ConfigKey<Integer> OPEN_SHARD_FILES = ConfigKey.ofInt("pod.read.openShardFiles", 512, 0,
            1_000_000, "Shard files the instance keeps open, with their parsed layout, so that a read of a "
                    + "recently read or written shard neither opens nor parses its file; least recently used "
                    + "closed first, 0 keeps none. Each is a file descriptor: a process holds up to this many per "
                    + "instance, plus one per reading thread, on top of its sockets (size LimitNOFILE for it).");

    /**
     * Settings a pod no longer takes, and why: a configuration that still sets one fails start-up with
     * this message rather than "unknown setting", so an operator knows where the value went.
     */
    public static final Map<String, String> REMOVED = Map.of(
            "pod.slots", "a pod's slots now come from the catalog's cluster map: the coordinators send them "
                    + "(op ASSIGN) and the pod keeps them in its state directory; delete the setting",
            "pod.stash.servers", "a pod's stash servers now come from the catalog's cluster map: the coordinators "
                    + "send them (op ASSIGN) and the pod keeps them in its state directory; delete the setting");

    /** Every pod key plus the RPC keys, for {@link io.shardvault.common.config.Settings#rejectUnknown}. */
    public static List<ConfigKey<?>> all() {
        List<ConfigKey<?>> keys = new ArrayList<>(List.of(NAME, BIND, STATE_DIR, TOMES, SIMULATED_HDD,
                SIMULATED_HDD_SEED, FLUSH_INTERVAL, FLUSH_BATCH_SHARDS, MAX_UNFLUSHED_BYTES,
                PURGE_SEGMENT_BYTES, PURGE_BATCH, PURGE_RETRY_MIN, PURGE_RETRY_MAX, PURGE_SEND_TIMEOUT,
                PURGE_LINGER, RECOVERY_TIMEOUT, SCRUB_RATE, SCRUB_INTERVAL, SCRUB_NICE, OPEN_SHARD_FILES));
        keys.addAll(RpcConfigKeys.all());
        return List.copyOf(keys);
    }
}
