package io.shardvault.s3.sosapi;

import io.shardvault.common.config.ConfigKey;
import java.util.List;
import java.util.Set;

/** Settings of the SOSAPI virtual objects, resolved into {@link SosapiConfig}. */
public final class SosapiConfigKeys {
    public static final ConfigKey<Boolean> ENABLED = ConfigKey.ofBoolean("s3.sosapi.enabled", true,
            "Serve SOSAPI's system.xml and capacity.xml in every bucket (Veeam's Smart Object Storage API).");
    public static final ConfigKey<String> LISTING_CLIENTS = ConfigKey.ofRegex("s3.sosapi.listingClients",
            "(^|\\s)Veeam/",
            "The clients whose listings show the virtual objects: a regular expression found (case-insensitively) "
                    + "in the User-Agent; the default matches a Veeam/ product token, as Veeam Backup & Replication "
                    + "sends (APN/1.0 Veeam/1.0 Backup/12.0). Other clients still read the objects by name.");
    public static final ConfigKey<String> MODEL_NAME = ConfigKey.ofString("s3.sosapi.modelName", "shardvault",
            "The vendor model name system.xml reports (Veeam uses it for statistics).");
    public static final ConfigKey<Boolean> CAPACITY_INFO = ConfigKey.ofBoolean("s3.sosapi.capacityInfo", true,
            "Declare CapacityInfo and serve capacity.xml (only where the store reports capacity).");
    public static final ConfigKey<Boolean> RECOMMENDATIONS = ConfigKey.ofBoolean("s3.sosapi.recommendations", true,
            "Include the SystemRecommendations section below in system.xml.");
    public static final ConfigKey<String> KB_BLOCK_SIZE = ConfigKey.ofChoice("s3.sosapi.kbBlockSize", "1024",
            Set.of("256", "512", "1024", "4096", "8192"),
            "Recommended Veeam block size in KiB before compression (KbBlockSize); new jobs take it.");
    public static final ConfigKey<Integer> S3_CONCURRENT_TASK_LIMIT = ConfigKey.ofInt(
            "s3.sosapi.s3ConcurrentTaskLimit", 64, 1, 65_536,
            "S3 requests Veeam runs in parallel per repository task slot (S3ConcurrentTaskLimit).");
    public static final ConfigKey<Integer> S3_MULTI_OBJECT_DELETE_LIMIT = ConfigKey.ofInt(
            "s3.sosapi.s3MultiObjectDeleteLimit", 1000, 1, 1000,
            "Keys per DeleteObjects request Veeam sends (S3MultiObjectDeleteLimit; S3 allows at most 1000).");
    public static final ConfigKey<Integer> STORAGE_CONCURRENT_TASKS_LIMIT = ConfigKey.ofInt(
            "s3.sosapi.storageConcurrentTasksLimit", 0, 0, 65_536,
            "Repository task slots that write to this storage at once (StorageConcurrentTasksLimit; 0 = no limit).");

    private SosapiConfigKeys() {
    }

    /** Every key above. */
    public static List<ConfigKey<?>> all() {
        return List.of(ENABLED, LISTING_CLIENTS, MODEL_NAME, CAPACITY_INFO, RECOMMENDATIONS, KB_BLOCK_SIZE, S3_CONCURRENT_TASK_LIMIT,
                S3_MULTI_OBJECT_DELETE_LIMIT, STORAGE_CONCURRENT_TASKS_LIMIT);
    }
}
