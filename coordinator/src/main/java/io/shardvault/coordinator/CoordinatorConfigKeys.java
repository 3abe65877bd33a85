package io.shardvault.coordinator;

import io.shardvault.common.config.ConfigKey;

import java.time.Duration;
import java.util.List;

/**
 * The coordinator process's own settings: the cluster map, when the settings hold it (one vault in v1,
 * the stash servers; {@link ClusterMapConfig}), background work, and a bootstrap access key. The catalog ({@code catalog.*}), data
 * paths ({@code stash.threshold}, {@code data.*}), codec ({@code erasure.*}), protocol
 * ({@code rpc.*}) and S3 endpoint ({@code s3.*}) keep their own keys.
 */
public final class CoordinatorConfigKeys {
    private CoordinatorConfigKeys() {
    }

    public static final ConfigKey<Integer> VAULT_ID = ConfigKey.ofInt("coordinator.vault.id", 0, 0, Integer.MAX_VALUE,
            "The id of the vault new files are written to.");
    public static final ConfigKey<String> VAULT_LAYOUT = ConfigKey.ofString("coordinator.vault.layout", "16+4",
            "The vault's erasure layout, k+m.");
    public static final ConfigKey<Long> VAULT_CHUNK_BYTES = ConfigKey.ofBytes("coordinator.vault.chunkBytes",
            64L << 10, 16, 64L << 20, "Bytes per chunk of a full stripe (a multiple of 16); a stripe is k chunks.");
    public static final ConfigKey<String> VAULT_PODS = ConfigKey.ofString("coordinator.vault.pods", "none",
            "The vault's n pods as host:port, comma-separated, in shard order: with coordinator.vault.layout, "
                    + "chunkBytes and coordinator.stash.servers, a cluster map, registered in the catalog at start "
                    + "as shardvault init --map does; a map that disagrees with the catalog's stops the start, "
                    + "naming the difference (a pod a decommission moved is taken from the catalog, logged). none: "
                    + "the map is the catalog's, and the start waits (coordinator.startupTimeout) until one is "
                    + "registered.");
    public static final ConfigKey<String> STASH_SERVERS = ConfigKey.ofString("coordinator.stash.servers", "none",
            "The stash servers as host:port, comma-separated, in cluster-map order; part of the cluster map "
                    + "(coordinator.vault.pods), whose stash servers every coordinator writes to and assigns the "
                    + "pods (op ASSIGN); none: every write is durable.");
    public static final ConfigKey<Duration> REAPER_INTERVAL = ConfigKey.ofDuration("coordinator.reaper.interval",
            Duration.ofSeconds(10), Duration.ofMillis(100), Duration.ofHours(24),
            "How often the catalog's queue of released files is checked for shards to delete.");
    public static final ConfigKey<Duration> REAPER_GRACE = ConfigKey.ofDuration("coordinator.reaper.grace",
            Duration.ofMinutes(5), Duration.ZERO, Duration.ofDays(7),
            "How long a released file's shards stay after a coordinator first sees it queued for deletion: a GET "
                    + "that began before the overwrite or delete that released it reads it to its end. Longer "
                    + "GETs can lose their file midway (503); space comes back this much later.");
    public static final ConfigKey<Integer> FILE_ID_BATCH = ConfigKey.ofInt("coordinator.fileIdBatch", 64, 1, 1_000_000,
            "File ids taken from the catalog per allocation.");
    public static final ConfigKey<String> ACCESS_KEY = ConfigKey.ofString("coordinator.accessKey", "none",
            "A bootstrap S3 access key id accepted besides the catalog's keys, of the built-in account 'admin' "
                    + "(admin keys create --account admin adds keys to it), its root: it may bypass GOVERNANCE retention (s3:BypassGovernanceRetention); none for none.");
    public static final ConfigKey<String> SECRET_KEY = ConfigKey.ofSecret("coordinator.secretKey", "none",
            "The bootstrap access key's secret.");
    public static final ConfigKey<Duration> STARTUP_TIMEOUT = ConfigKey.ofDuration("coordinator.startupTimeout",
            Duration.ofSeconds(120), Duration.ofSeconds(1), Duration.ofHours(1),
            "How long start-up waits for the catalog to elect a leader and answer, and then for its cluster map "
                    + "when the settings name none.");

    public static List<ConfigKey<?>> all() {
        return List.of(VAULT_ID, VAULT_LAYOUT, VAULT_CHUNK_BYTES, VAULT_PODS, STASH_SERVERS, REAPER_INTERVAL,
                REAPER_GRACE, FILE_ID_BATCH, ACCESS_KEY, SECRET_KEY, STARTUP_TIMEOUT);
    }
}
