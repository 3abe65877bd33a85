package io.shardvault.s3;

/**
 * A bucket's Object Lock configuration (issue #9).
 *
 * @param enabled whether the bucket was created with Object Lock
 * @param defaultMode the default retention's mode, or {@code null} when there is no default rule
 * @param defaultDays the default retention's length in days (0 when none or given in years)
 * @param defaultYears the default retention's length in years (0 when none or given in days)
 */
public record ObjectLockConfiguration(boolean enabled, RetentionMode defaultMode, int defaultDays,
                                      int defaultYears) {
    public static final ObjectLockConfiguration DISABLED = new ObjectLockConfiguration(false, null, 0, 0);

    public ObjectLockConfiguration {
        if (defaultDays < 0 || defaultYears < 0) {
            throw new IllegalArgumentException("negative default retention: " + defaultDays + "d " + defaultYears
                    + "y");
        }
        if (defaultMode != null && (defaultDays > 0) == (defaultYears > 0)) {
            throw new IllegalArgumentException("a default retention takes exactly one of days and years");
        }
        if (defaultMode == null && (defaultDays > 0 || defaultYears > 0)) {
            throw new IllegalArgumentException("a default retention length needs a mode");
        }
    }
}
