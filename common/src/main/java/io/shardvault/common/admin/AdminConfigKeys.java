package io.shardvault.common.admin;

import io.shardvault.common.config.ConfigKey;
import java.util.List;

/** The settings of a service's admin HTTP port. */
public final class AdminConfigKeys {
    private AdminConfigKeys() {
    }

    public static final ConfigKey<String> BIND = ConfigKey.ofString("admin.bind", "127.0.0.1:0",
            "Where the admin HTTP port (metrics, health) listens, as host:port; port 0 picks a free port."
                    + " Loopback by default: expose it deliberately.");
    public static final ConfigKey<Integer> THREADS = ConfigKey.ofInt("admin.threads", 2, 1, 64,
            "Threads answering admin HTTP requests; they never serve data.");

    /** Every key above, for {@link io.shardvault.common.config.Settings#rejectUnknown}. */
    public static List<ConfigKey<?>> all() {
        return List.of(BIND, THREADS);
    }
}
