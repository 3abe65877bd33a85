package io.shardvault.coordinator.admin.cli;

import java.util.ArrayList;
import java.util.List;
import javax.management.openmbean.CompositeData;

/**
 * The one-word answer {@code admin status} opens with, from the views it already fetched, and the
 * reasons behind it:
 * <ul>
 *   <li>UNAVAILABLE: the catalog has no leader, or a vault cannot take writes (too few writable pods);</li>
 *   <li>DEGRADED: everything serves, but something needs an operator: a failed tome, a pod not UP or
 *       unreachable, an unreachable stash server;</li>
 *   <li>HEALTHY: none of these.</li>
 * </ul>
 * Immutable.
 */
record ClusterVerdict(String state, List<String> reasons) {
    static final String HEALTHY = "HEALTHY";
    static final String DEGRADED = "DEGRADED";
    static final String UNAVAILABLE = "UNAVAILABLE";

    static ClusterVerdict of(CompositeData catalog, CompositeData[] vaults, CompositeData[] pods,
                             CompositeData[] stashServers) {
        List<String> unavailable = new ArrayList<>();
        if (((String) catalog.get("leaderId")).isEmpty()) {
            unavailable.add("the catalog has no leader");
        }
        for (CompositeData v : vaults) {
            if (!(Boolean) v.get("writable")) {
                unavailable.add("vault " + v.get("vaultId") + " is not writable: " + v.get("writeQuorum")
                        + " pods needed UP and reachable");
            }
        }
        List<String> degraded = new ArrayList<>();
        for (CompositeData p : pods) {
            String pod = "pod " + p.get("shardIndex") + " of vault " + p.get("vaultId") + " (" + p.get("address") + ")";
            if (!(Boolean) p.get("reachable")) {
                degraded.add(pod + " is unreachable: " + p.get("error"));
            }
            if (!"UP".equals(p.get("state"))) {
                degraded.add(pod + " is " + p.get("state"));
            }
            for (CompositeData t : (CompositeData[]) p.get("failedTomes")) {
                degraded.add(pod + " has FAILED tome " + t.get("tome") + " (" + t.get("directory") + ")"
                        + ((Boolean) t.get("recorded") ? "" : ", its failure NOT recorded on the pod's disk"));
            }
        }
        for (CompositeData s : stashServers) {
            if (!(Boolean) s.get("reachable")) {
                degraded.add("stash server " + s.get("stashId") + " (" + s.get("address") + ") is unreachable: "
                        + s.get("error"));
            }
        }
        List<String> reasons = new ArrayList<>(unavailable);
        reasons.addAll(degraded);
        String state = !unavailable.isEmpty() ? UNAVAILABLE : !degraded.isEmpty() ? DEGRADED : HEALTHY;
        return new ClusterVerdict(state, List.copyOf(reasons));
    }
}
