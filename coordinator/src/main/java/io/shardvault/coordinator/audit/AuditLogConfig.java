package io.shardvault.coordinator.audit;

import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.Settings;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The audit log's resolved settings (see {@link AuditLogConfigKeys}). Immutable.
 *
 * @param enabled whether the coordinator writes the audit log
 * @param file the active file
 * @param maxFileSize bytes past which the active file is rolled over
 * @param maxAgeDays days of rolled files kept
 * @param maxTotalSize bytes the rolled files may take together
 */
public record AuditLogConfig(boolean enabled, Path file, long maxFileSize, int maxAgeDays, long maxTotalSize) {
    public AuditLogConfig {
        Objects.requireNonNull(file, "file");
        if (maxTotalSize < maxFileSize) {
            throw new ConfigException(AuditLogConfigKeys.MAX_TOTAL_SIZE + " (" + maxTotalSize + ") is less than "
                    + AuditLogConfigKeys.MAX_FILE_SIZE + " (" + maxFileSize
                    + "): not even one rolled file would be kept");
        }
    }

    /** @throws ConfigException naming the key of a bad value */
    public static AuditLogConfig from(Settings settings) {
        return new AuditLogConfig(settings.get(AuditLogConfigKeys.ENABLED), settings.get(AuditLogConfigKeys.FILE),
                settings.get(AuditLogConfigKeys.MAX_FILE_SIZE), settings.get(AuditLogConfigKeys.MAX_AGE_DAYS),
                settings.get(AuditLogConfigKeys.MAX_TOTAL_SIZE));
    }

    /**
     * The rolled files' name pattern (Logback's): {@code audit.json} rolls to {@code audit.2026-11-27.0.json.gz}
     * beside it, a day and a counter per roll.
     */
    String rolledFilePattern() {
        String name = file.getFileName().toString();
        String stem = name.endsWith(".json") ? name.substring(0, name.length() - ".json".length()) : name;
        return file.resolveSibling(stem + ".%d{yyyy-MM-dd,UTC}.%i.json.gz").toString();
    }
}
