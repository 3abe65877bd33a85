package io.shardvault.common.jmx;

import io.shardvault.common.config.ConfigKey;
import java.util.List;
import java.util.Set;

/**
 * The settings of a process's remote JMX connector ({@link JmxRemoteServer}). Off by default; when
 * enabled, a user and password (or a password file) are required, and TLS is used when a keystore
 * is set.
 */
public final class JmxRemoteConfigKeys {
    private JmxRemoteConfigKeys() {
    }

    public static final ConfigKey<Boolean> ENABLED = ConfigKey.ofBoolean("jmx.remote.enabled", false,
            "Whether JMX is served remotely (JConsole, VisualVM, 'shardvault admin'). Off by default.");
    public static final ConfigKey<String> BIND = ConfigKey.ofString("jmx.remote.bind", "127.0.0.1:9010",
            "Where remote JMX listens, host:port: the RMI registry and the RMI connector share this one port"
                    + " (a fixed port: open it in the firewall). The host is also the address clients are"
                    + " told to connect to, unless java.rmi.server.hostname is set.");
    public static final ConfigKey<String> USER = ConfigKey.ofString("jmx.remote.user", "none",
            "The remote JMX user name (with jmx.remote.password); none when a password file is used.");
    public static final ConfigKey<String> PASSWORD = ConfigKey.ofSecret("jmx.remote.password", "none",
            "The remote JMX user's password.");
    public static final ConfigKey<String> PASSWORD_FILE = ConfigKey.ofString("jmx.remote.passwordFile", "none",
            "A file of 'user password' lines ('#' starts a comment) accepted by remote JMX; keep it mode 0600.");
    public static final ConfigKey<String> TLS_KEYSTORE = ConfigKey.ofString("jmx.remote.tls.keystore", "none",
            "A keystore (PKCS12 or JKS) holding the TLS key and certificate; none: no TLS.");
    public static final ConfigKey<String> TLS_KEYSTORE_PASSWORD = ConfigKey.ofSecret(
            "jmx.remote.tls.keystorePassword", "none", "The keystore's (and its key's) password.");
    public static final ConfigKey<String> TLS_KEYSTORE_TYPE = ConfigKey.ofChoice("jmx.remote.tls.keystoreType",
            "PKCS12", Set.of("PKCS12", "JKS"), "The keystore's type.");

    /** Every key above, for {@link io.shardvault.common.config.Settings#rejectUnknown}. */
    public static List<ConfigKey<?>> all() {
        return List.of(ENABLED, BIND, USER, PASSWORD, PASSWORD_FILE, TLS_KEYSTORE, TLS_KEYSTORE_PASSWORD,
                TLS_KEYSTORE_TYPE);
    }
}
