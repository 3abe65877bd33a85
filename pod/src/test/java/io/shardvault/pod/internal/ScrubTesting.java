package io.shardvault.pod.internal;

import io.shardvault.common.ShardId;
import java.io.IOException;
import java.util.Optional;

/**
 * The pod's scrub tests (in {@code io.shardvault.pod}, beside the package-private PodServer seams)
 * reach the scrubber's package-private hooks through here: run a pass now, take single steps, and
 * read where it is.
 */
public final class ScrubTesting {
    private ScrubTesting() {
    }

    /** Runs a whole scrub pass of {@code node} now, at full speed. */
    public static void runPassNow(PodNode node) throws IOException {
        node.scrubber().runPassNow();
    }

    /** Takes {@code steps} scrub steps of {@code node}, at full speed, as the lane would. */
    public static void step(PodNode node, int steps) throws IOException {
        for (int i = 0; i < steps; i++) {
            node.scrubber().step();
        }
    }

    /** The current (or last) pass number; 0 before the first. */
    public static long pass(PodNode node) {
        return node.scrubber().position().pass();
    }

    /** Whether a pass is under way. */
    public static boolean inPass(PodNode node) {
        return node.scrubber().position().inPass();
    }

    /** The last shard the current pass checked. */
    public static Optional<ShardId> after(PodNode node) {
        return node.scrubber().position().after();
    }

    /** Files the last complete pass checked. */
    public static long lastPassFiles(PodNode node) {
        return node.scrubber().position().last().files();
    }

    /** The name of the scrub position file in the state directory. */
    public static String positionFileName() {
        return ScrubPosition.NAME;
    }
}
