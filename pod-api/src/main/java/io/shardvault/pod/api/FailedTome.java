package io.shardvault.pod.api;

/**
 * One failed tome of a pod as STATS reports it: it takes no writes and its shards' stash copies
 * are kept until an operator clears it (docs/OPERATIONS.md, "A failed tome").
 *
 * @param tome the tome's index in the pod's {@code pod.tomes}; -1 from a pod that reports only a count
 * @param directory the tome's directory on the pod's host, empty when unknown
 * @param failedAtMillis when it failed, epoch milliseconds; 0 when unknown (a damaged record)
 * @param reason why, one line
 * @param recorded whether the pod wrote its failure record ({@code failed-tome-<index>} in its state
 *     directory); false means the state directory refused it: the pod keeps the tome failed while it
 *     runs and retries the record, but a restart before it lands would bring the tome back healthy
 */
public record FailedTome(int tome, String directory, long failedAtMillis, String reason, boolean recorded) {
    public FailedTome {
        if (tome < -1) {
            throw new IllegalArgumentException("tome " + tome);
        }
        if (directory == null || reason == null) {
            throw new NullPointerException("directory and reason are required");
        }
    }
}
