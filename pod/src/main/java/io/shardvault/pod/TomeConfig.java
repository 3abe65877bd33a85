package io.shardvault.pod;

import java.nio.file.Path;
import java.util.Objects;

/**
 * One tome of a pod instance.
 *
 * @param directory the disk's directory; created if missing
 * @param simulatedHdd model a 7,200 RPM drive on this tome's fsyncs (a benchmark setting, off by
 *     default; every report must name it as simulated)
 */
public record TomeConfig(Path directory, boolean simulatedHdd) {
    public TomeConfig {
        Objects.requireNonNull(directory, "directory");
    }
}
