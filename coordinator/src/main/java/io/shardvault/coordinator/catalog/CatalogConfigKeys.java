package io.shardvault.coordinator.catalog;

import io.shardvault.common.config.ConfigKey;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** The catalog peer's settings. Resolve them with {@link CatalogConfig#from}. */
public final class CatalogConfigKeys {
    private CatalogConfigKeys() {
    }

    public static final ConfigKey<String> PEER_ID = ConfigKey.ofString("catalog.peerId", "c1",
            "This coordinator's catalog peer id; it must appear in catalog.peers.");
    public static final ConfigKey<String> PEERS = ConfigKey.ofString("catalog.peers", "c1=127.0.0.1:9860",
            "Every catalog peer as id=host:port, comma separated: 1 peer for a local cluster, 3 or 5 in production.");
    public static final ConfigKey<String> GROUP_ID = ConfigKey.ofString("catalog.groupId",
            "5ca7a109-0000-4000-8000-000000000001",
            "The Raft group's UUID; every peer of one cluster names the same one.");
    public static final ConfigKey<Path> DATA_DIR = ConfigKey.ofPath("catalog.dataDir", Path.of("data", "catalog"),
            "Directory for the catalog's RocksDB, its snapshots and Ratis's log and metadata.");
    public static final ConfigKey<Integer> SNAPSHOT_EVERY = ConfigKey.ofInt("catalog.snapshot.everyEntries",
            100_000, 16, Integer.MAX_VALUE,
            "Take a RocksDB checkpoint snapshot after this many applied log entries; the log is purged behind it.");
    public static final ConfigKey<Integer> SNAPSHOTS_RETAINED = ConfigKey.ofInt("catalog.snapshot.retained", 2, 1, 100,
            "How many snapshots to keep on disk.");
    public static final ConfigKey<Long> LOG_SEGMENT_BYTES = ConfigKey.ofBytes("catalog.log.segmentBytes", 32L << 20,
            64L << 10, 1L << 30, "Largest Raft log segment file; purging removes whole segments.");
    public static final ConfigKey<Duration> ELECTION_TIMEOUT_MIN = ConfigKey.ofDuration(
            "catalog.election.timeoutMin", Duration.ofMillis(1000), Duration.ofMillis(50), Duration.ofMinutes(1),
            "Shortest time a follower waits without hearing from a leader before it stands for election.");
    public static final ConfigKey<Duration> ELECTION_TIMEOUT_MAX = ConfigKey.ofDuration(
            "catalog.election.timeoutMax", Duration.ofMillis(2000), Duration.ofMillis(100), Duration.ofMinutes(2),
            "Longest such wait; each follower picks a random time between the two.");
    public static final ConfigKey<Duration> REQUEST_TIMEOUT = ConfigKey.ofDuration("catalog.client.requestTimeout",
            Duration.ofSeconds(15), Duration.ofMillis(100), Duration.ofMinutes(10),
            "How long a catalog call may take, retries across leader changes included, before it fails TIMEOUT.");
    public static final ConfigKey<Integer> MAX_OUTSTANDING = ConfigKey.ofInt("catalog.client.maxOutstanding", 1024,
            1, 1 << 20, "Calls one coordinator may have in flight to the catalog; more wait their turn.");
    public static final ConfigKey<Integer> READ_THREADS = ConfigKey.ofInt("catalog.readThreads", 4, 1, 256,
            "Threads that run linearizable reads (listings, lookups) against RocksDB.");
    public static final ConfigKey<Duration> DEDUP_WINDOW = ConfigKey.ofDuration("catalog.dedupWindow",
            Duration.ofMinutes(10), Duration.ofSeconds(10), Duration.ofDays(1),
            "How long the results of applied writes are kept by request id, so a retried write is answered, not applied twice.");
    public static final ConfigKey<Boolean> LEADER_LEASE = ConfigKey.ofBoolean("catalog.read.leaderLease", true,
            "Linearizable reads on a leader whose lease holds skip the heartbeat round. Safe while clock rates agree"
                    + " within 10%; turn it off where a process or VM can be frozen with its monotonic clock stopped"
                    + " (docs/CATALOG.md, Leader lease).");
    public static final ConfigKey<Long> MEMTABLE_BYTES = ConfigKey.ofBytes("catalog.rocksdb.memtableBytes", 64L << 20,
            1L << 20, 1L << 34,
            "Memtable memory of the catalog's RocksDB over all its tables: when their memtables hold this much, the"
                    + " largest is flushed. Catalog entries are small, so memtables fill slowly; a large budget only"
                    + " pins memory and lengthens the WAL replay after a crash.");
    public static final ConfigKey<Long> BLOCK_CACHE_BYTES = ConfigKey.ofBytes("catalog.rocksdb.blockCacheBytes",
            32L << 20, 1L << 20, 1L << 40,
            "Block cache shared by the catalog's tables (uncompressed blocks); beyond it reads come from the page"
                    + " cache. Raise it for a catalog whose hot keys (recent versions, open uploads) outgrow it.");

    public static final ConfigKey<Path> SECRETS_KEY_FILE = ConfigKey.ofPath("catalog.secrets.keyFile",
            Path.of("catalog-secrets.key"),
            "File of the cluster keys that seal S3 secret keys in the catalog: one id:base64 (32 random bytes) a"
                    + " line, the last one sealing, every one opening; the same file on every coordinator, readable by"
                    + " the service's user only (mode 0600 or 0400). Required unless security.insecure = true (then"
                    + " secrets are stored as they are, with a WARN at every start). The default is never used: it"
                    + " counts only when set.");

    /** Every key above, for {@link io.shardvault.common.config.Settings#rejectUnknown}. */
    public static List<ConfigKey<?>> all() {
        return List.of(PEER_ID, PEERS, GROUP_ID, DATA_DIR, SNAPSHOT_EVERY, SNAPSHOTS_RETAINED, LOG_SEGMENT_BYTES,
                ELECTION_TIMEOUT_MIN, ELECTION_TIMEOUT_MAX, REQUEST_TIMEOUT, MAX_OUTSTANDING, READ_THREADS,
                DEDUP_WINDOW, LEADER_LEASE, MEMTABLE_BYTES, BLOCK_CACHE_BYTES, SECRETS_KEY_FILE);
    }
}
