package io.shardvault.s3.sosapi;

import io.shardvault.common.config.Settings;
import java.util.Objects;
import java.util.Set;

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
 * @param modelName the model name system.xml reports
 * @param capacityInfo whether to declare CapacityInfo and serve capacity.xml (when the store can)
 * @param recommendations whether system.xml carries the SystemRecommendations section
 */
public record SosapiConfig(boolean enabled, String modelName, boolean capacityInfo, boolean recommendations,
                           int kbBlockSize, int s3ConcurrentTaskLimit, int s3MultiObjectDeleteLimit,
                           int storageConcurrentTasksLimit) {
    private static final Set<Integer> BLOCK_SIZES = Set.of(256, 512, 1024, 4096, 8192);

    /** No virtual objects: the two keys are ordinary keys. */
    public static final SosapiConfig DISABLED = new SosapiConfig(false, "shardvault", false, false, 1024, 64, 1000, 0);

    public SosapiConfig {
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
        return new SosapiConfig(s.get(SosapiConfigKeys.ENABLED), s.get(SosapiConfigKeys.MODEL_NAME),
                s.get(SosapiConfigKeys.CAPACITY_INFO), s.get(SosapiConfigKeys.RECOMMENDATIONS),
                Integer.parseInt(s.get(SosapiConfigKeys.KB_BLOCK_SIZE)),
                s.get(SosapiConfigKeys.S3_CONCURRENT_TASK_LIMIT), s.get(SosapiConfigKeys.S3_MULTI_OBJECT_DELETE_LIMIT),
                s.get(SosapiConfigKeys.STORAGE_CONCURRENT_TASKS_LIMIT));
    }

    public static SosapiConfig defaults() {
        return from(Settings.empty());
    }
}
