package io.shardvault.pod.api;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * What the coordinators tell a pod instance (op ASSIGN), from the catalog's cluster map: the slots
 * it holds and the stash servers that hold the copies of its buffered writes. The pod persists it
 * and recovers from exactly these servers and slots after a crash, so the pod and the coordinators
 * that write to it cannot disagree about where the stash copies are.
 *
 * <p>Two assignments are the same when they name the same slots and the same stash servers, in
 * any order: stash placement is rendezvous hashing over the servers' {@code host:port}, which does
 * not depend on the list's order. The {@link #fingerprint()} is over that canonical form.
 *
 * @param slots the slots the instance holds, sorted, without duplicates
 * @param stashServers every stash server, in cluster-map order; empty when the cluster has no stash
 *     (the pod then takes no buffered write)
 */
public record PodAssignment(List<PodSlot> slots, List<InetSocketAddress> stashServers) {
    /** The fingerprint a pod without an assignment reports in STATS. */
    public static final long UNASSIGNED = 0;

    private static final Comparator<PodSlot> SLOT_ORDER = Comparator.comparingInt(PodSlot::vaultId)
            .thenComparingInt(PodSlot::shardIndex);

    public PodAssignment {
        TreeSet<PodSlot> sorted = new TreeSet<>(SLOT_ORDER);
        for (PodSlot s : Objects.requireNonNull(slots, "slots")) {
            sorted.add(Objects.requireNonNull(s, "slot"));
        }
        slots = List.copyOf(sorted);
        stashServers = List.copyOf(stashServers);
        if (new TreeSet<>(names(stashServers)).size() != stashServers.size()) {
            throw new IllegalArgumentException("a stash server is listed twice: " + stashServers);
        }
    }

    /** Whether this assignment gives the instance slot {@code (vaultId, shardIndex)}. */
    public boolean holds(int vaultId, int shardIndex) {
        return slots.contains(new PodSlot(vaultId, shardIndex));
    }

    /** Whether both name the same stash servers (in any order). */
    public boolean sameStash(PodAssignment other) {
        return new TreeSet<>(names(stashServers)).equals(new TreeSet<>(names(other.stashServers)));
    }

    /**
     * A 64-bit FNV-1a hash of the canonical form (the sorted slots, then the sorted
     * {@code host:port} of the servers); never {@link #UNASSIGNED}.
     */
    public long fingerprint() {
        StringBuilder canonical = new StringBuilder();
        for (PodSlot s : slots) {
            canonical.append(s).append(',');
        }
        canonical.append('|');
        for (String name : new TreeSet<>(names(stashServers))) {
            canonical.append(name).append(',');
        }
        long hash = 0xcbf29ce484222325L;
        for (byte b : canonical.toString().getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= 0x100000001b3L;
        }
        return hash == UNASSIGNED ? 1 : hash;
    }

    private static List<String> names(List<InetSocketAddress> servers) {
        List<String> out = new ArrayList<>(servers.size());
        for (InetSocketAddress a : servers) {
            out.add(a.getHostString() + ":" + a.getPort());
        }
        return out;
    }

    @Override
    public String toString() {
        return "slots " + slots + ", stash servers " + names(stashServers);
    }
}
