package io.shardvault.common.jmx;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Set;
import javax.management.remote.JMXAuthenticator;
import javax.management.remote.JMXPrincipal;
import javax.security.auth.Subject;

/**
 * Accepts the {@code String[] {user, password}} credentials a JMX client sends (JConsole's login
 * box, {@code JMXConnector.CREDENTIALS}) when they match a configured user; compares in constant
 * time. Thread-safe, immutable.
 */
final class PasswordAuthenticator implements JMXAuthenticator {
    private final Map<String, byte[]> users;

    PasswordAuthenticator(Map<String, String> users) {
        this.users = users.entrySet().stream().collect(java.util.stream.Collectors.toUnmodifiableMap(
                Map.Entry::getKey, e -> e.getValue().getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public Subject authenticate(Object credentials) {
        if (!(credentials instanceof String[] c) || c.length != 2 || c[0] == null || c[1] == null) {
            throw new SecurityException("authentication required: a user name and password");
        }
        byte[] expected = users.get(c[0]);
        byte[] given = c[1].getBytes(StandardCharsets.UTF_8);
        // Compare against something even for an unknown user, so timing does not tell users apart.
        boolean ok = MessageDigest.isEqual(expected == null ? new byte[given.length + 1] : expected, given);
        if (expected == null || !ok) {
            throw new SecurityException("authentication failed: bad user name or password");
        }
        return new Subject(true, Set.of(new JMXPrincipal(c[0])), Set.of(), Set.of());
    }
}
