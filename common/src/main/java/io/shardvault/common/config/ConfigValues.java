package io.shardvault.common.config;

import java.time.Duration;

/**
 * Writes values the way a settings file would ({@code 30s}, {@code 64MiB}), for messages and the
 * configuration reference: the largest unit that divides the value exactly, so nothing is rounded.
 */
final class ConfigValues {
    private static final long[] BYTE_UNITS = {1L << 40, 1L << 30, 1L << 20, 1L << 10};
    private static final String[] BYTE_SUFFIXES = {"TiB", "GiB", "MiB", "KiB"};
    private static final long[] MILLIS_UNITS = {86_400_000L, 3_600_000L, 60_000L, 1_000L, 1L};
    private static final String[] MILLIS_SUFFIXES = {"d", "h", "m", "s", "ms"};

    private ConfigValues() {
    }

    static String bytes(long n) {
        for (int i = 0; i < BYTE_UNITS.length; i++) {
            if (n != 0 && n % BYTE_UNITS[i] == 0) {
                return n / BYTE_UNITS[i] + BYTE_SUFFIXES[i];
            }
        }
        return Long.toString(n);
    }

    static String duration(Duration d) {
        if (d.toNanosPart() % 1_000_000 != 0) {
            return d.toNanos() + "ns";
        }
        long millis = d.toMillis();
        for (int i = 0; i < MILLIS_UNITS.length; i++) {
            if (millis != 0 && millis % MILLIS_UNITS[i] == 0) {
                return millis / MILLIS_UNITS[i] + MILLIS_SUFFIXES[i];
            }
        }
        return "0s";
    }
}
