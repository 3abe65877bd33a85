package io.shardvault.coordinator.catalog;

/**
 * What an operator decided about a pod, kept in the catalog so every coordinator honours it and it
 * survives restarts. It says nothing about whether the pod answers (that is reachability, seen by
 * each coordinator for itself).
 *
 * <table>
 *   <caption>States</caption>
 *   <tr><th>state</th><th>new shards</th><th>reads</th><th>meaning</th></tr>
 *   <tr><td>UP</td><td>yes</td><td>yes</td><td>in service (the state of every pod nobody marked)</td></tr>
 *   <tr><td>DRAINING</td><td>no</td><td>yes</td><td>being emptied or retired: keep its data readable</td></tr>
 *   <tr><td>DOWN</td><td>no</td><td>yes, when it answers</td><td>out of service (failed disk, maintenance)</td></tr>
 * </table>
 */
public enum PodState {
    UP(0),
    DOWN(1),
    DRAINING(2);

    private final int wire;

    PodState(int wire) {
        this.wire = wire;
    }

    /** The stable catalog code. */
    public int wire() {
        return wire;
    }

    /** Whether new shards may be written to a pod in this state. */
    public boolean acceptsNewShards() {
        return this == UP;
    }

    public static PodState ofWire(int code) {
        for (PodState s : values()) {
            if (s.wire == code) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown pod state " + code);
    }
}
