package io.shardvault.it.release;

import io.shardvault.it.s3.S3Cluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The release's sample confs moved onto one host, as little changed as that allows: each {@code host:port} of
 * the samples (their 192.0.2.x documentation addresses and the loopback JMX port) becomes a free port on
 * 127.0.0.1, the same one wherever the samples repeat it (so the cluster map and each service's own address
 * still agree), and {@code /etc/shardvault}, {@code /var/lib/shardvault}, {@code /srv/shardvault} become
 * directories under one test directory. Fails if anything of the samples' hosts or paths is left. Not
 * thread-safe.
 */
final class LoopbackConfs {
    private static final Pattern HOST_PORT = Pattern.compile("(192\\.0\\.2\\.\\d+|127\\.0\\.0\\.1):(\\d+)");
    private static final Pattern DOC_HOST = Pattern.compile("192\\.0\\.2\\.\\d+");
    private static final Pattern S3_PORT = Pattern.compile("(?m)^s3\\.port = \\d+$");

    private final Path etc;
    private final Path var;
    private final Path srv;
    private final Map<String, String> addresses = new LinkedHashMap<>();
    private final int s3Port;

    LoopbackConfs(Path dir) throws IOException {
        this.etc = dir.resolve("etc");
        this.var = dir.resolve("var");
        this.srv = dir.resolve("srv");
        Files.createDirectories(etc);
        this.s3Port = S3Cluster.freePort();
    }

    /** Where {@code /etc/shardvault} went: the confs, keys and certificates. */
    Path etc() {
        return etc;
    }

    Path var() {
        return var;
    }

    Path srv() {
        return srv;
    }

    int s3Port() {
        return s3Port;
    }

    /** The loopback address that stands for the samples' {@code hostPort} (e.g. {@code 192.0.2.31:7400}). */
    String address(String hostPort) {
        return addresses.computeIfAbsent(hostPort, k -> "127.0.0.1:" + freePort());
    }

    /**
     * Writes {@code sample} moved to this host as {@code etc/name}, with {@code extraLines} after it (a later
     * HOCON key wins: what differs between instances sharing one sample).
     */
    Path write(Path sample, String name, String... extraLines) throws IOException {
        String text = adapt(Files.readString(sample, StandardCharsets.UTF_8));
        List<String> lines = new ArrayList<>(List.of(text));
        lines.addAll(List.of(extraLines));
        Path file = etc.resolve(name);
        Files.write(file, lines, StandardCharsets.UTF_8);
        return file;
    }

    /** The comma-separated value of {@code key} in a written conf (a list of addresses, say). */
    static List<String> listValue(Path conf, String key) throws IOException {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(key) + " = \"([^\"]*)\"$")
                .matcher(Files.readString(conf, StandardCharsets.UTF_8));
        if (!m.find()) {
            throw new IllegalStateException(conf + " sets no " + key);
        }
        return List.of(m.group(1).split(","));
    }

    private String adapt(String text) {
        Matcher m = HOST_PORT.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, address(m.group()));
        }
        m.appendTail(out);
        String moved = DOC_HOST.matcher(out).replaceAll("127.0.0.1")
                .replace("/etc/shardvault/", etc + "/")
                .replace("/var/lib/shardvault/", var + "/")
                .replace("/srv/shardvault/", srv + "/");
        Matcher port = S3_PORT.matcher(moved);
        moved = port.find() ? port.replaceFirst("s3.port = " + s3Port) : moved;
        for (String left : List.of("192.0.2.", "/etc/shardvault", "/var/lib/shardvault", "/srv/shardvault")) {
            // Comments may name them; a setting may not.
            for (String line : moved.split("\n")) {
                if (!line.startsWith("#") && line.contains(left)) {
                    throw new IllegalStateException("a sample setting still names " + left + ": " + line);
                }
            }
        }
        return moved;
    }

    private static int freePort() {
        try {
            return S3Cluster.freePort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
