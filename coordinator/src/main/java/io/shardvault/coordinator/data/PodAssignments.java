package io.shardvault.coordinator.data;

import io.shardvault.common.ErrorCode;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.pod.api.PodAssignment;
import io.shardvault.pod.api.PodClient;
import io.shardvault.pod.api.PodSlot;
import io.shardvault.pod.api.PodStats;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The pods' assignments from one cluster map (the catalog's vaults and their pods, and its stash
 * servers): each pod is told its slots and the stash servers (op ASSIGN), and this remembers which
 * pods accepted, so the write path sends buffered writes only to pods that could recover them
 * ({@link RecoverablePods}). A pod counts as assigned once it accepted an ASSIGN or reported the
 * expected fingerprint in STATS; until then, and after it refused a buffered write or an
 * assignment, it is written durably.
 *
 * <p>Sending: {@link #assignAll()} at start; {@link #observe} with every STATS answer of the
 * coordinator's periodic pod probe, which re-sends ASSIGN to a pod that reports none or another
 * (restarted without its state, or assigned by a coordinator with another map); {@link #follow} when
 * the vault map moves a pod (a decommission's end), so its replacement takes the slot. A pod that refuses
 * its assignment (CONFLICT: it has unflushed shards or undelivered purges for other stash servers)
 * is logged at ERROR and stays written durably.
 *
 * <p>Thread-safe. Holds no resources (the {@link PodClient}'s owner closes it).
 */
public final class PodAssignments implements RecoverablePods {
    private static final Logger LOG = LoggerFactory.getLogger(PodAssignments.class);

    private final PodClient pods;
    private final List<InetSocketAddress> stashServers;
    /** The map's pods by slot, and what each is to be assigned; replaced whole when a pod moves. */
    private volatile Expected current;
    private final Set<InetSocketAddress> accepted = ConcurrentHashMap.newKeySet();
    /** Pods whose refusal was logged, so that a probe every few seconds does not repeat it. */
    private final Set<InetSocketAddress> refusalLogged = ConcurrentHashMap.newKeySet();

    /**
     * @param podBySlot every pod of the cluster map by the slot it holds (a pod may hold several)
     * @param stashServers the stash servers, in cluster-map order (empty: no stash, nothing buffered)
     */
    public PodAssignments(PodClient pods, Map<PodSlot, InetSocketAddress> podBySlot,
                          List<InetSocketAddress> stashServers) {
        this.pods = Objects.requireNonNull(pods, "pods");
        this.stashServers = List.copyOf(stashServers);
        this.current = Expected.of(podBySlot, this.stashServers);
    }

    private record Expected(Map<PodSlot, InetSocketAddress> podBySlot, Map<InetSocketAddress, PodAssignment> byPod) {
        static Expected of(Map<PodSlot, InetSocketAddress> podBySlot, List<InetSocketAddress> stashServers) {
            Map<InetSocketAddress, List<PodSlot>> slots = new HashMap<>();
            podBySlot.forEach((slot, pod) -> slots.computeIfAbsent(pod, p -> new ArrayList<>()).add(slot));
            Map<InetSocketAddress, PodAssignment> byPod = new HashMap<>();
            slots.forEach((pod, held) -> byPod.put(pod, new PodAssignment(held, stashServers)));
            return new Expected(Map.copyOf(podBySlot), Map.copyOf(byPod));
        }
    }

    /**
     * Takes in {@code vault}'s pods as the map has them now (a decommission moved one): a pod that took
     * over a slot is sent its assignment at once, and is written durably until it accepts it. Completes
     * when the pods whose assignment changed answered; never fails.
     */
    public CompletableFuture<Void> follow(Vault vault) {
        Expected before;
        Expected after;
        synchronized (this) {
            before = current;
            Map<PodSlot, InetSocketAddress> bySlot = new HashMap<>(before.podBySlot());
            for (int i = 0; i < vault.pods().size(); i++) {
                bySlot.put(new PodSlot(vault.vaultId(), i), vault.pod(i));
            }
            after = Expected.of(bySlot, stashServers);
            current = after;
        }
        List<CompletableFuture<Void>> sent = new ArrayList<>();
        after.byPod().forEach((pod, want) -> {
            if (!want.equals(before.byPod().get(pod))) {
                accepted.remove(pod);
                sent.add(assign(pod));
            }
        });
        return CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new));
    }

    /** The assignments of the pods of {@code vaults}: pod i of a vault holds slot {@code vaultId:i}. */
    public static PodAssignments forVaults(PodClient pods, List<Vault> vaults, List<InetSocketAddress> stashServers) {
        Map<PodSlot, InetSocketAddress> bySlot = new HashMap<>();
        for (Vault v : vaults) {
            for (int i = 0; i < v.pods().size(); i++) {
                bySlot.put(new PodSlot(v.vaultId(), i), v.pod(i));
            }
        }
        return new PodAssignments(pods, bySlot, stashServers);
    }

    /** What pod {@code pod} is to be assigned, or null if the cluster map has no such pod. */
    public PodAssignment expected(InetSocketAddress pod) {
        return current.byPod().get(pod);
    }

    /** Sends every pod its assignment; completes when each answered (successes and refusals are recorded). */
    public CompletableFuture<Void> assignAll() {
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (InetSocketAddress pod : current.byPod().keySet()) {
            all.add(assign(pod));
        }
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new));
    }

    /**
     * Takes in a pod's STATS: a pod reporting its expected fingerprint counts as assigned; any other
     * is (re)sent its assignment. Completes when that is settled; never fails.
     */
    public CompletableFuture<Void> observe(InetSocketAddress pod, PodStats stats) {
        PodAssignment want = expected(pod);
        if (want == null) {
            return CompletableFuture.completedFuture(null);
        }
        if (stats.assignment() == want.fingerprint()) {
            accepted.add(pod);
            return CompletableFuture.completedFuture(null);
        }
        accepted.remove(pod);
        return assign(pod);
    }

    private CompletableFuture<Void> assign(InetSocketAddress pod) {
        PodAssignment want = expected(pod);
        if (want == null) {
            // Moved out of the map meanwhile (a decommission ended): it is assigned nothing any more.
            return CompletableFuture.completedFuture(null);
        }
        return pods.assign(pod, want).handle((ok, failure) -> {
            if (failure == null) {
                accepted.add(pod);
                refusalLogged.remove(pod);
                LOG.info("pod {} assigned: {}", pod, want);
                return null;
            }
            accepted.remove(pod);
            RpcException e = RpcException.from(failure);
            if (e.code() == ErrorCode.CONFLICT) {
                if (refusalLogged.add(pod)) {
                    LOG.error("pod {} refused its assignment from the cluster map ({}); it is written durably "
                            + "until it accepts one: {}", pod, want, e.getMessage());
                }
            } else {
                LOG.debug("pod {} not assigned yet (written durably meanwhile): {}", pod, e.toString());
            }
            return null;
        });
    }

    @Override
    public boolean canRecoverBuffered(int vaultId, int shardIndex) {
        InetSocketAddress pod = current.podBySlot().get(new PodSlot(vaultId, shardIndex));
        return pod != null && accepted.contains(pod) && !stashServers.isEmpty();
    }

    @Override
    public void refusedBuffered(int vaultId, int shardIndex) {
        InetSocketAddress pod = current.podBySlot().get(new PodSlot(vaultId, shardIndex));
        if (pod != null && accepted.remove(pod)) {
            LOG.warn("pod {} refused a buffered write as not recoverable: it is written durably until it reports "
                    + "its assignment again", pod);
        }
    }
}
