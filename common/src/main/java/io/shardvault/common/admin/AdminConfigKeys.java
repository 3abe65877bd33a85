package io.shardvault.common.admin;

import io.shardvault.common.config.ConfigKey;
import java.nio.file.Path;
import java.util.List;

/**
 * The settings of a service's admin HTTP port. Beyond loopback the port needs both {@link #TLS} and a
 * bearer token ({@link #TOKEN_FILE} or {@link #TOKEN}), else the service refuses to start unless
 * {@code security.insecure = true}. The defaults of the token keys are never used: they count only
 * when set.
 */
public final class AdminConfigKeys {
    private AdminConfigKeys() {
    }

    public static final ConfigKey<String> BIND = ConfigKey.ofString("admin.bind", "127.0.0.1:0",
            "Where the admin HTTP port (metrics, health) listens, as host:port; port 0 picks a free port."
                    + " Loopback by default: expose it deliberately.");
    public static final ConfigKey<Integer> THREADS = ConfigKey.ofInt("admin.threads", 2, 1, 64,
            "Threads answering admin HTTP requests; they never serve data.");
    public static final ConfigKey<Boolean> TLS = ConfigKey.ofBoolean("admin.tls", false,
            "Serve the admin port over HTTPS with this service's cluster certificate (tls.certificate, tls.key, "
                    + "tls.ca must be set); clients trust the cluster CA and need no certificate of their own.");
    public static final ConfigKey<Path> TOKEN_FILE = ConfigKey.ofPath("admin.tokenFile", Path.of("admin.token"),
            "File holding the bearer token every admin request must carry (Authorization: Bearer TOKEN); "
                    + "readable by the service's user only (mode 0600 or 0400), else the start fails.");
    public static final ConfigKey<String> TOKEN = ConfigKey.ofSecret("admin.token", "unset",
            "The bearer token itself, for a token from the environment: admin.token = ${?VARIABLE} in the config "
                    + "file. Refused on the command line, where ps shows it; at most one of this and admin.tokenFile.");

    /** Every key above, for {@link io.shardvault.common.config.Settings#rejectUnknown}. */
    public static List<ConfigKey<?>> all() {
        return List.of(BIND, THREADS, TLS, TOKEN_FILE, TOKEN);
    }
}
