package io.shardvault.s3.sosapi;

import io.shardvault.common.config.Settings;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The SOSAPI virtual objects' options, resolved once at startup (keys in {@link SosapiConfigKeys}).
 *
 * <table>
 *   <caption>system.xml's SystemRecommendations</caption>
 *   <tr><th>option</th><th>element</th><th>default</th></tr>
 *   <tr><td>kbBlockSize</td><td>KbBlockSize</td><td>1024 (256, 512, 1024, 4096 or 8192)</td></tr>
 *   <tr><td>s3ConcurrentTaskLimit</td><td>S3ConcurrentTaskLimit</td><td>64</td></tr>
 *   <tr><td>s3MultiObjectDeleteLimit</td><td>S3MultiObjectDeleteLimit</td><td>1000 (at most 1000)</td></tr>
 *   <tr><td>storageConcurrentTasksLimit</td><td>StorageConcurrentTasksLimit</td><td>0 (no limit)</td></tr>
 * </table>
 *
 * @param enabled whether the virtual objects exist at all
 * @param listingClients the User-Agents (found anywhere in the header, case-insensitively) whose
 *     listings show the virtual objects; every caller reads them by name
 * @param modelName the model name system.xml reports
 * @param capacityInfo whether to declare CapacityInfo and serve capacity.xml (when the store can)
 * @param recommendations whether system.xml carries the SystemRecommendations section
 */
public record SosapiConfig(boolean enabled, Pattern listingClients, String modelName, boolean capacityInfo, boolean recommendations,
                           int kbBlockSize, int s3ConcurrentTaskLimit, int s3MultiObjectDeleteLimit,
                           int storageConcurrentTasksLimit) {
    private static final Set<Integer> BLOCK_SIZES = Set.of(256, 512, 1024, 4096, 8192);

    /** Veeam Backup & Replication's User-Agent product token (the default of {@code s3.sosapi.listingClients}). */
    public static final Pattern VEEAM_CLIENTS = listingClients(SosapiConfigKeys.LISTING_CLIENTS.defaultValue());

    /** No virtual objects: the two keys are ordinary keys. */
    public static final SosapiConfig DISABLED = new SosapiConfig(false, VEEAM_CLIENTS, "shardvault", false, false,
            1024, 64, 1000, 0);

    public SosapiConfig {
        Objects.requireNonNull(listingClients, "listingClients");
        Objects.requireNonNull(modelName, "modelName");
        if (!BLOCK_SIZES.contains(kbBlockSize)) {
            throw new IllegalArgumentException("kbBlockSize must be one of " + BLOCK_SIZES + ": " + kbBlockSize);
        }
        if (s3ConcurrentTaskLimit < 1 || s3MultiObjectDeleteLimit < 1 || s3MultiObjectDeleteLimit > 1000
                || storageConcurrentTasksLimit < 0) {
            throw new IllegalArgumentException("SOSAPI limits out of range: " + s3ConcurrentTaskLimit + ", "
                    + s3MultiObjectDeleteLimit + ", " + storageConcurrentTasksLimit);
        }
    }

    public static SosapiConfig from(Settings s) {
        return new SosapiConfig(s.get(SosapiConfigKeys.ENABLED), listingClients(s.get(SosapiConfigKeys.LISTING_CLIENTS)),
                s.get(SosapiConfigKeys.MODEL_NAME),
                s.get(SosapiConfigKeys.CAPACITY_INFO), s.get(SosapiConfigKeys.RECOMMENDATIONS),
                Integer.parseInt(s.get(SosapiConfigKeys.KB_BLOCK_SIZE)),
                s.get(SosapiConfigKeys.S3_CONCURRENT_TASK_LIMIT), s.get(SosapiConfigKeys.S3_MULTI_OBJECT_DELETE_LIMIT),
                s.get(SosapiConfigKeys.STORAGE_CONCURRENT_TASKS_LIMIT));
    }

    /** Compiles a {@code s3.sosapi.listingClients} expression: it matches case-insensitively. */
    public static Pattern listingClients(String regex) {
        return Pattern.compile(regex, Pattern.CASE_INSENSITIVE);
    }

    /** Whether a listing asked with this User-Agent (null when absent) shows the virtual objects. */
    public boolean listsFor(String userAgent) {
        return enabled && userAgent != null && listingClients.matcher(userAgent).find();
    }

    public static SosapiConfig defaults() {
        return from(Settings.empty());
    }
}
