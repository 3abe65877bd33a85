package io.shardvault.pod;

/**
 * The coordinator's tests reach the pod's package-private crash seam through here: the pod module
 * ships no test-jar, and {@link PodServer#halt()} (stop at once, no flush, no clean-shutdown marker)
 * is what a killed process looks like to the rest of the cluster.
 */
public final class PodCrash {
    private PodCrash() {
    }

    /** Stops the pod as a crash would: no flush of buffered writes, no clean-shutdown marker. */
    public static void halt(PodServer pod) {
        pod.halt();
    }
}
