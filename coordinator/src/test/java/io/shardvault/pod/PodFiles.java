package io.shardvault.pod;

import io.shardvault.common.ShardId;
import java.nio.file.Path;

/**
 * The coordinator's tests reach a running pod's shard file through here (the pod module ships no
 * test-jar and {@link PodServer#node()} is package-private): to damage it on disk, as a rotting
 * sector would.
 */
public final class PodFiles {
    private PodFiles() {
    }

    /** Where {@code pod} keeps shard {@code id}. */
    public static Path shardFile(PodServer pod, ShardId id) {
        return pod.node().pathOf(id);
    }
}
