package io.shardvault.common.jmx;

import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.HostPort;
import io.shardvault.common.config.ListenerGuard;
import io.shardvault.common.config.Settings;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The resolved settings of {@link JmxRemoteConfigKeys}.
 *
 * <table>
 *   <caption>Options</caption>
 *   <tr><th>option</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>enabled</td><td>false</td><td>serve JMX remotely at all</td></tr>
 *   <tr><td>bind</td><td>127.0.0.1:9010</td><td>the one port of the registry and the connector</td></tr>
 *   <tr><td>users</td><td>none</td><td>user → password; required when enabled</td></tr>
 *   <tr><td>keystore</td><td>none</td><td>TLS key and certificate; none: plain sockets</td></tr>
 * </table>
 *
 * @param enabled whether remote JMX is served
 * @param bind where it listens (port 1..65535)
 * @param users the accepted user names and their passwords
 * @param keystore the TLS keystore, if TLS is wanted
 * @param keystorePassword the keystore's password
 * @param keystoreType PKCS12 or JKS
 */
public record JmxRemoteConfig(boolean enabled, InetSocketAddress bind, Map<String, String> users,
                              Optional<Path> keystore, String keystorePassword, String keystoreType) {

    public JmxRemoteConfig {
        Objects.requireNonNull(bind, "bind");
        users = Map.copyOf(users);
        Objects.requireNonNull(keystore, "keystore");
        Objects.requireNonNull(keystorePassword, "keystorePassword");
        Objects.requireNonNull(keystoreType, "keystoreType");
        if (enabled && users.isEmpty()) {
            throw new IllegalArgumentException("remote JMX needs a user and password (" + JmxRemoteConfigKeys.USER.name()
                    + " and " + JmxRemoteConfigKeys.PASSWORD.name() + ", or " + JmxRemoteConfigKeys.PASSWORD_FILE.name()
                    + "): it is never served without authentication");
        }
        if (enabled && (bind.getPort() < 1 || bind.getPort() > 65_535)) {
            throw new IllegalArgumentException("remote JMX needs a fixed port, got " + bind.getPort());
        }
    }

    /** Remote JMX off. */
    public static JmxRemoteConfig disabled() {
        return new JmxRemoteConfig(false, new InetSocketAddress("127.0.0.1", 9010), Map.of(), Optional.empty(), "",
                "PKCS12");
    }

    /** Remote JMX on {@code bind} for one user, without TLS (tests, development). */
    public static JmxRemoteConfig withPassword(InetSocketAddress bind, String user, String password) {
        return new JmxRemoteConfig(true, bind, Map.of(user, password), Optional.empty(), "", "PKCS12");
    }

    /** Resolves the keys; reads the password file, if one is named. */
    public static JmxRemoteConfig from(Settings s) {
        try {
            Map<String, String> users = new LinkedHashMap<>();
            String user = none(s.get(JmxRemoteConfigKeys.USER));
            String password = none(s.get(JmxRemoteConfigKeys.PASSWORD));
            if (user.isEmpty() != password.isEmpty()) {
                throw new IllegalArgumentException(JmxRemoteConfigKeys.USER.name() + " and "
                        + JmxRemoteConfigKeys.PASSWORD.name() + " go together");
            }
            if (!user.isEmpty()) {
                users.put(user, password);
            }
            String file = none(s.get(JmxRemoteConfigKeys.PASSWORD_FILE));
            boolean enabled = s.get(JmxRemoteConfigKeys.ENABLED);
            if (!file.isEmpty() && enabled) {
                users.putAll(readPasswordFile(Path.of(file)));
            }
            String keystore = none(s.get(JmxRemoteConfigKeys.TLS_KEYSTORE));
            InetSocketAddress bind = HostPort.parse(s.get(JmxRemoteConfigKeys.BIND));
            if (enabled) {
                // Without TLS the JMX password crosses the network in the clear.
                ListenerGuard.from(s).admit(JmxRemoteConfigKeys.BIND.name(), bind, !keystore.isEmpty());
            }
            return new JmxRemoteConfig(enabled, bind, users,
                    keystore.isEmpty() ? Optional.empty() : Optional.of(Path.of(keystore)),
                    none(s.get(JmxRemoteConfigKeys.TLS_KEYSTORE_PASSWORD)), s.get(JmxRemoteConfigKeys.TLS_KEYSTORE_TYPE));
        } catch (IllegalArgumentException e) {
            throw new ConfigException("jmx.remote settings from " + s.source() + ": " + e.getMessage(), e);
        }
    }

    /** {@code user password} per line; blank lines and {@code #} comments are skipped. */
    static Map<String, String> readPasswordFile(Path file) {
        Map<String, String> users = new LinkedHashMap<>();
        try {
            int line = 0;
            for (String raw : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                line++;
                String text = raw.strip();
                if (text.isEmpty() || text.startsWith("#")) {
                    continue;
                }
                String[] parts = text.split("\\s+", 2);
                if (parts.length != 2) {
                    throw new IllegalArgumentException(file + " line " + line + ": expected 'user password'");
                }
                users.put(parts[0], parts[1]);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the password file " + file + ": " + e.getMessage(), e);
        }
        return users;
    }

    private static String none(String value) {
        String v = value.trim();
        return v.equalsIgnoreCase("none") ? "" : v;
    }

    @Override
    public String toString() {
        // Never print the passwords.
        return "JmxRemoteConfig[enabled=" + enabled + ", bind=" + bind + ", users=" + users.keySet() + ", tls="
                + keystore.isPresent() + "]";
    }
}
