package io.shardvault.coordinator.audit;

import io.shardvault.common.config.ConfigKey;
import java.nio.file.Path;
import java.util.List;

/** The S3 audit log's settings ({@code audit.*}): read by the coordinator service only. */
public final class AuditLogConfigKeys {
    private AuditLogConfigKeys() {
    }

    public static final ConfigKey<Boolean> ENABLED = ConfigKey.ofBoolean("audit.enabled", true,
            "Write the S3 audit log: one JSON line per S3 request, once its answer is complete (docs/OPERATIONS.md, "
                    + "\"The audit log\"). The coordinator refuses to start when the file cannot be opened.");
    public static final ConfigKey<Path> FILE = ConfigKey.ofPath("audit.file", Path.of("logs", "audit.json"),
            "The audit log's active file; rolled files go beside it as NAME.yyyy-MM-dd.N.json.gz (UTC dates), "
                    + "gzipped.");
    public static final ConfigKey<Long> MAX_FILE_SIZE = ConfigKey.ofBytes("audit.maxFileSize", 100L << 20, 1L << 10,
            1L << 40, "Roll the active file over once it is past this size (and at midnight UTC).");
    public static final ConfigKey<Integer> MAX_AGE_DAYS = ConfigKey.ofInt("audit.maxAgeDays", 30, 1, 36_500,
            "Days of rolled files kept; older ones are deleted.");
    public static final ConfigKey<Long> MAX_TOTAL_SIZE = ConfigKey.ofBytes("audit.maxTotalSize", 10L << 30, 1L << 10,
            1L << 50, "The most the rolled files may take together, at least audit.maxFileSize; the oldest are "
                    + "deleted first.");

    /** Every key above. */
    public static List<ConfigKey<?>> all() {
        return List.of(ENABLED, FILE, MAX_FILE_SIZE, MAX_AGE_DAYS, MAX_TOTAL_SIZE);
    }
}
