package io.shardvault.it.release;

import io.shardvault.common.testing.FreePorts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The release's sample confs moved onto one host ({@link SampleConfs}): each {@code host:port} of the samples
 * (their 192.0.2.x documentation addresses and the loopback JMX port) becomes a free port on 127.0.0.1, the same
 * one wherever the samples repeat it (so the cluster map and each service's own address still agree). Fails if
 * anything of the samples' hosts is left. Not thread-safe.
 */
final class LoopbackConfs {
    private static final Pattern HOST_PORT = Pattern.compile("(192\\.0\\.2\\.\\d+|127\\.0\\.0\\.1):(\\d+)");
    private static final Pattern DOC_HOST = Pattern.compile("192\\.0\\.2\\.\\d+");
    private static final Pattern S3_PORT = Pattern.compile("(?m)^s3\\.port = \\d+$");

    private final SampleConfs confs;
    private final Map<String, String> addresses = new LinkedHashMap<>();
    private final int s3Port;

    LoopbackConfs(Path dir) throws IOException {
        this.confs = new SampleConfs(dir);
        this.s3Port = FreePorts.loopback();
    }

    SampleConfs files() {
        return confs;
    }

    int s3Port() {
        return s3Port;
    }

    /** The loopback address that stands for the samples' {@code hostPort} (e.g. {@code 192.0.2.31:7400}). */
    String address(String hostPort) {
        return addresses.computeIfAbsent(hostPort, k -> "127.0.0.1:" + FreePorts.loopback());
    }

    /** {@link SampleConfs#write} with the samples' addresses moved to loopback. */
    Path write(Path sample, String name, String... extraLines) throws IOException {
        return confs.write(sample, name, this::adapt, extraLines);
    }

    private String adapt(String text) {
        Matcher m = HOST_PORT.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, address(m.group()));
        }
        m.appendTail(out);
        String moved = DOC_HOST.matcher(out).replaceAll("127.0.0.1");
        Matcher port = S3_PORT.matcher(moved);
        moved = port.find() ? port.replaceFirst("s3.port = " + s3Port) : moved;
        SampleConfs.refuseSetting(moved, "192.0.2.");
        return moved;
    }
}
