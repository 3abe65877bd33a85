package io.shardvault.it.release;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The release's sample confs written for a test cluster with only what must change changed: the samples'
 * {@code /etc/shardvault}, {@code /var/lib/shardvault}, {@code /srv/shardvault}, {@code /var/log/shardvault} become
 * directories under one
 * test directory, their addresses whatever the caller's rewrite makes of them (loopback ports on one host, or the
 * samples' own addresses in network namespaces), and lines appended for what differs between instances. Fails
 * if a setting still names a sample path. Also writes the owner-only secret files the samples point to. Not
 * thread-safe.
 */
public final class SampleConfs {
    private final Path etc;
    private final Path var;
    private final Path srv;
    private final Path log;

    public SampleConfs(Path dir) throws IOException {
        this.etc = dir.resolve("etc");
        this.var = dir.resolve("var");
        this.srv = dir.resolve("srv");
        this.log = dir.resolve("log");
        Files.createDirectories(etc);
    }

    /** Where {@code /etc/shardvault} went: the confs, keys and certificates. */
    public Path etc() {
        return etc;
    }

    public Path var() {
        return var;
    }

    public Path srv() {
        return srv;
    }

    /**
     * Writes {@code sample} as {@code etc/name}: {@code addresses} applied to its text, the sample paths moved,
     * then {@code extraLines} after it (a later HOCON key wins: what differs between instances sharing one sample).
     */
    public Path write(Path sample, String name, UnaryOperator<String> addresses, String... extraLines)
            throws IOException {
        String moved = addresses.apply(Files.readString(sample, StandardCharsets.UTF_8))
                .replace("/etc/shardvault/", etc + "/")
                .replace("/var/lib/shardvault/", var + "/")
                .replace("/srv/shardvault/", srv + "/")
                .replace("/var/log/shardvault/", log + "/");
        refuseSetting(moved, "/etc/shardvault", "/var/lib/shardvault", "/srv/shardvault", "/var/log/shardvault");
        List<String> lines = new ArrayList<>(List.of(moved));
        lines.addAll(List.of(extraLines));
        Path file = etc.resolve(name);
        Files.write(file, lines, StandardCharsets.UTF_8);
        return file;
    }

    /** Writes {@code etc/name} holding {@code line}, mode 0600 from its creation, as the samples want secrets. */
    public Path writeSecret(String name, String line) throws IOException {
        Path file = etc.resolve(name);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, line + "\n", StandardCharsets.UTF_8);
        return file;
    }

    /** The comma-separated value of {@code key} in a written conf (a list of addresses, say). */
    public static List<String> listValue(Path conf, String key) throws IOException {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(key) + " = \"([^\"]*)\"$")
                .matcher(Files.readString(conf, StandardCharsets.UTF_8));
        if (!m.find()) {
            throw new IllegalStateException(conf + " sets no " + key);
        }
        return List.of(m.group(1).split(","));
    }

    /** Fails if a setting of {@code text} (not a comment: comments may name them) still contains one of {@code left}. */
    static void refuseSetting(String text, String... left) {
        for (String l : left) {
            for (String line : text.split("\n")) {
                if (!line.startsWith("#") && line.contains(l)) {
                    throw new IllegalStateException("a sample setting still names " + l + ": " + line);
                }
            }
        }
    }
}
