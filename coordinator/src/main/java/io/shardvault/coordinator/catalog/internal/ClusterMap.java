package io.shardvault.coordinator.catalog.internal;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.catalog.FileIdRange;
import io.shardvault.coordinator.catalog.FileLayout;
import io.shardvault.coordinator.catalog.MapRegistration;
import io.shardvault.coordinator.catalog.PodInfo;
import io.shardvault.coordinator.catalog.PodRebuildJob;
import io.shardvault.coordinator.catalog.PodState;
import io.shardvault.coordinator.catalog.PodStatus;
import io.shardvault.coordinator.catalog.StashInfo;
import io.shardvault.coordinator.catalog.VaultInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.rocksdb.RocksIterator;

/**
 * The cluster map: vaults ({@link Table#VAULTS}), their pods ({@link Table#PODS}) and pod states
 * ({@link Table#POD_STATES}), stash servers ({@link Table#STASHES}), and file id allocation (a counter
 * per vault, so a new leader never reuses an id).
 *
 * <p>Deterministic and stateless, as every catalog subject.
 */
final class ClusterMap {
    private ClusterMap() {
    }

    static VaultInfo registerVault(Entry e, VaultInfo v) throws CatalogException {
        byte[] vk = new Wire.Writer(4).i32(v.vaultId()).toByteArray();
        byte[] old = e.txn().get(Table.VAULTS, vk);
        if (old != null && !vault(new Wire.Reader(old)).layout().equals(v.layout())) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "vault " + v.vaultId() + " exists with another layout");
        }
        Wire.Writer w = new Wire.Writer();
        vault(w, new VaultInfo(v.vaultId(), v.layout(), v.capacityBytes(), List.of()));
        e.txn().put(Table.VAULTS, vk, w.toByteArray());
        for (PodInfo p : v.pods()) {
            registerPod(e, p);
        }
        return vaultWithPods(e.txn(), v.vaultId());
    }

    /** A vault with its pods, or null when it is not registered. */
    static VaultInfo vaultWithPods(RocksCatalogStore.Reads r, int vaultId) {
        byte[] vk = new Wire.Writer(4).i32(vaultId).toByteArray();
        byte[] raw = r.get(Table.VAULTS, vk);
        if (raw == null) {
            return null;
        }
        VaultInfo v = vault(new Wire.Reader(raw));
        List<PodInfo> pods = new ArrayList<>();
        try (RocksIterator it = r.iterator(Table.PODS)) {
            for (it.seek(vk); it.isValid() && Keys.startsWith(it.key(), vk); it.next()) {
                pods.add(pod(new Wire.Reader(it.value())));
            }
        }
        return new VaultInfo(v.vaultId(), v.layout(), v.capacityBytes(), pods);
    }

    static void registerPod(Entry e, PodInfo p) throws CatalogException {
        VaultInfo v = vaultWithPods(e.txn(), p.vaultId());
        if (v == null) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "pod of unregistered vault " + p.vaultId());
        }
        if (p.shardIndex() >= v.layout().dataShards() + v.layout().parityShards()) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "shard index " + p.shardIndex() + " out of vault " + p.vaultId());
        }
        Wire.Writer w = new Wire.Writer();
        pod(w, p);
        e.txn().put(Table.PODS, Keys.podKey(p.vaultId(), p.shardIndex()), w.toByteArray());
    }

    /**
     * The whole map in one entry: every check first, so that a disagreement writes nothing (see
     * {@link io.shardvault.coordinator.catalog.Catalog#registerClusterMap}).
     */
    static MapRegistration registerClusterMap(Entry e, List<VaultInfo> vaults, List<StashInfo> stashes)
            throws CatalogException {
        List<String> conflicts = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        List<VaultInfo> newVaults = new ArrayList<>();
        List<PodInfo> newPods = new ArrayList<>();
        Set<Integer> mapped = new HashSet<>();
        for (VaultInfo v : vaults) {
            mapped.add(v.vaultId());
            VaultInfo held = vaultWithPods(e.txn(), v.vaultId());
            if (held == null) {
                newVaults.add(v);
                notes.add("added vault " + v.vaultId() + " (" + layoutText(v.layout()) + ") with its "
                        + v.pods().size() + " pods");
            } else if (!held.layout().equals(v.layout())) {
                conflicts.add("vault " + v.vaultId() + " is " + layoutText(held.layout()) + " in the catalog, "
                        + layoutText(v.layout()) + " in the map (a vault's layout never changes)");
            } else {
                comparePods(e, held, v, conflicts, notes, newPods);
            }
        }
        for (VaultInfo held : listVaults(e.txn())) {
            if (!mapped.contains(held.vaultId())) {
                conflicts.add("the catalog holds vault " + held.vaultId() + ", which the map lacks");
            }
        }
        List<StashInfo> heldStashes = listStashes(e.txn());
        boolean newStashes = heldStashes.isEmpty() && !stashes.isEmpty();
        if (newStashes) {
            notes.add("added " + stashes.size() + " stash server" + (stashes.size() == 1 ? "" : "s"));
        } else if (!new HashSet<>(heldStashes).equals(new HashSet<>(stashes))) {
            conflicts.add("the catalog's stash servers are " + stashText(heldStashes) + ", the map's "
                    + stashText(stashes) + " (they place every stash copy)");
        }
        if (!conflicts.isEmpty()) {
            throw new CatalogException(ErrorCode.CONFLICT, "the cluster map disagrees with the catalog's, nothing "
                    + "changed: " + String.join("; ", conflicts));
        }
        for (VaultInfo v : newVaults) {
            registerVault(e, v);
        }
        for (PodInfo p : newPods) {
            registerPod(e, p);
        }
        if (newStashes) {
            for (StashInfo s : stashes) {
                registerStash(e, s);
            }
        }
        return new MapRegistration(!newVaults.isEmpty() || !newPods.isEmpty() || newStashes, notes);
    }

    /** Compares {@code v}'s pods with {@code held}'s (same vault, same layout); collects pods to add. */
    private static void comparePods(Entry e, VaultInfo held, VaultInfo v, List<String> conflicts, List<String> notes,
                                    List<PodInfo> newPods) {
        Map<Integer, PodInfo> heldBySlot = new HashMap<>();
        held.pods().forEach(p -> heldBySlot.put(p.shardIndex(), p));
        for (PodInfo p : v.pods()) {
            PodInfo at = heldBySlot.remove(p.shardIndex());
            if (at == null) {
                newPods.add(p);
                notes.add("added pod " + p.shardIndex() + " of vault " + v.vaultId() + " at " + address(p));
            } else if (!address(at).equals(address(p))) {
                if (leftByDecommission(e.txn(), p)) {
                    notes.add("pod " + p.shardIndex() + " of vault " + v.vaultId() + " is at " + address(at)
                            + " since a decommission moved it from " + address(p) + ": update the map file");
                } else {
                    String elsewhere = held.pods().stream().filter(h -> address(h).equals(address(p))).findFirst()
                            .map(h -> ", which is pod " + h.shardIndex() + " there (pods reordered?)")
                            .orElse(" (moved outside a decommission?)");
                    conflicts.add("pod " + p.shardIndex() + " of vault " + v.vaultId() + " is at " + address(at)
                            + " in the catalog, at " + address(p) + " in the map" + elsewhere);
                }
            }
        }
        for (PodInfo extra : heldBySlot.values()) {
            conflicts.add("the catalog holds pod " + extra.shardIndex() + " of vault " + v.vaultId() + " at "
                    + address(extra) + ", which the map lacks");
        }
    }

    /** The COUNTERS row of the addresses decommissions moved a pod away from, oldest first. */
    private static byte[] movedFromKey(int vaultId, int shardIndex) {
        return Keys.utf8("podMovedFrom/" + vaultId + "/" + shardIndex);
    }

    /**
     * Records that a decommission moved pod {@code shardIndex} of {@code vaultId} away from {@code host:port}
     * (in the entry that moves it): a map file naming that address is then a decommission behind, not wrong.
     */
    static void recordDecommissionMove(Entry e, int vaultId, int shardIndex, String host, int port) {
        byte[] key = movedFromKey(vaultId, shardIndex);
        byte[] old = e.txn().get(Table.COUNTERS, key);
        String from = host + ":" + port;
        e.txn().put(Table.COUNTERS, key, Keys.utf8(old == null ? from
                : new String(old, java.nio.charset.StandardCharsets.UTF_8) + "," + from));
    }

    /**
     * Whether a decommission moved pod {@code p}'s slot away from {@code p}'s address: recorded since
     * {@link #recordDecommissionMove}; before it, only the pod's last job (if a finished decommission) says so.
     */
    private static boolean leftByDecommission(RocksCatalogStore.Reads r, PodInfo p) {
        byte[] moves = r.get(Table.COUNTERS, movedFromKey(p.vaultId(), p.shardIndex()));
        if (moves != null && List.of(new String(moves, java.nio.charset.StandardCharsets.UTF_8).split(","))
                .contains(address(p))) {
            return true;
        }
        PodRebuildJob last = PodRebuilds.stored(r, p.vaultId(), p.shardIndex());
        return last != null && last.copies() && last.state() == PodRebuildJob.State.DONE
                && last.sourceHost().equals(p.host()) && last.sourcePort() == p.port();
    }

    private static String address(PodInfo p) {
        return p.host() + ":" + p.port();
    }

    private static String layoutText(FileLayout l) {
        return l.dataShards() + "+" + l.parityShards() + ", chunks of " + l.chunkBytes() + " bytes";
    }

    private static String stashText(List<StashInfo> stashes) {
        return stashes.isEmpty() ? "none" : stashes.stream().map(s -> s.stashId() + "=" + s.host() + ":" + s.port())
                .sorted().toList().toString();
    }

    static PodStatus setPodState(Entry e, int vaultId, int shardIndex, PodState state) throws CatalogException {
        byte[] key = Keys.podKey(vaultId, shardIndex);
        if (e.txn().get(Table.PODS, key) == null) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "no pod " + shardIndex + " registered in vault " + vaultId);
        }
        PodStatus status = new PodStatus(vaultId, shardIndex, state, e.time());
        if (state == PodState.UP) {
            e.txn().delete(Table.POD_STATES, key);
        } else {
            Wire.Writer w = new Wire.Writer();
            podStatus(w, status);
            e.txn().put(Table.POD_STATES, key, w.toByteArray());
        }
        return status;
    }

    static List<PodStatus> listPodStates(RocksCatalogStore.Reads r) {
        List<PodStatus> out = new ArrayList<>();
        try (RocksIterator it = r.iterator(Table.POD_STATES)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                out.add(podStatus(new Wire.Reader(it.value())));
            }
        }
        return out;
    }

    static void registerStash(Entry e, StashInfo s) {
        Wire.Writer w = new Wire.Writer();
        stash(w, s);
        e.txn().put(Table.STASHES, Keys.utf8(s.stashId()), w.toByteArray());
    }

    static List<VaultInfo> listVaults(RocksCatalogStore.Reads r) {
        List<Integer> ids = new ArrayList<>();
        try (RocksIterator it = r.iterator(Table.VAULTS)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                ids.add(new Wire.Reader(it.key()).i32());
            }
        }
        List<VaultInfo> out = new ArrayList<>();
        for (int id : ids) {
            out.add(vaultWithPods(r, id));
        }
        return out;
    }

    static List<StashInfo> listStashes(RocksCatalogStore.Reads r) {
        List<StashInfo> out = new ArrayList<>();
        try (RocksIterator it = r.iterator(Table.STASHES)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                out.add(stash(new Wire.Reader(it.value())));
            }
        }
        return out;
    }

    static FileIdRange allocateFileIds(Entry e, int vaultId, int count) throws CatalogException {
        if (vaultId < 0 || count < 1 || count > 1_000_000) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "bad file id allocation " + vaultId + " x " + count);
        }
        long first = Counters.nextCounter(e, Keys.utf8("nextFileId/" + vaultId), 1, count);
        return new FileIdRange(vaultId, first, count);
    }

    // ---- encodings: its records, as stored and as replied ----

    static void pod(Wire.Writer w, PodInfo p) {
        w.i32(p.vaultId()).u8(p.shardIndex()).str(p.host()).i32(p.port());
    }

    static PodInfo pod(Wire.Reader r) {
        return new PodInfo(r.i32(), r.u8(), r.str(), r.i32());
    }

    static void vault(Wire.Writer w, VaultInfo v) {
        w.i32(v.vaultId());
        Codec.layout(w, v.layout());
        w.i64(v.capacityBytes());
        Codec.list(w, v.pods(), ClusterMap::pod);
    }

    static VaultInfo vault(Wire.Reader r) {
        return new VaultInfo(r.i32(), Codec.layout(r), r.i64(), Codec.list(r, ClusterMap::pod));
    }

    /** The value of a {@link Table#POD_STATES} row, format 1. */
    static void podStatus(Wire.Writer w, PodStatus p) {
        w.u8(1).i32(p.vaultId()).u8(p.shardIndex()).u8(p.state().wire());
        Codec.instant(w, p.since());
    }

    static PodStatus podStatus(Wire.Reader r) {
        int format = r.u8();
        if (format != 1) {
            throw new IllegalArgumentException("unknown pod state format " + format);
        }
        return new PodStatus(r.i32(), r.u8(), PodState.ofWire(r.u8()), Codec.instant(r));
    }

    static void stash(Wire.Writer w, StashInfo s) {
        w.str(s.stashId()).str(s.host()).i32(s.port());
    }

    static StashInfo stash(Wire.Reader r) {
        return new StashInfo(r.str(), r.str(), r.i32());
    }

    static void fileIdRange(Wire.Writer w, FileIdRange f) {
        w.i32(f.vaultId()).i64(f.first()).i32(f.count());
    }

    static FileIdRange fileIdRange(Wire.Reader r) {
        return new FileIdRange(r.i32(), r.i64(), r.i32());
    }

    // ---- commands: each client call (its fields and reply) beside the peer's handler ----

    /** REGISTER_VAULT: {@code VaultInfo} → VaultInfo (with every pod registered). */
    static Call<VaultInfo> registerVault(VaultInfo vault) {
        return new Call<>(Op.REGISTER_VAULT, w -> vault(w, vault), ClusterMap::vault);
    }

    static void applyRegisterVault(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        vault(out, registerVault(e, vault(in)));
    }

    /** REGISTER_CLUSTER_MAP: {@code list of VaultInfo | list of StashInfo} → {@code bool changed | list of str}. */
    static Call<MapRegistration> registerClusterMap(List<VaultInfo> vaults, List<StashInfo> stashes) {
        return new Call<>(Op.REGISTER_CLUSTER_MAP, w -> {
            Codec.list(w, vaults, ClusterMap::vault);
            Codec.list(w, stashes, ClusterMap::stash);
        }, r -> new MapRegistration(r.bool(), Codec.list(r, Wire.Reader::str)));
    }

    static void applyRegisterClusterMap(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        MapRegistration done = registerClusterMap(e, Codec.list(in, ClusterMap::vault), Codec.list(in, ClusterMap::stash));
        out.bool(done.changed());
        Codec.list(out, done.notes(), Wire.Writer::str);
    }

    /** REGISTER_POD: {@code PodInfo} → nothing. */
    static Call<Void> registerPod(PodInfo pod) {
        return Call.of(Op.REGISTER_POD, w -> pod(w, pod));
    }

    static void applyRegisterPod(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        registerPod(e, pod(in));
    }

    /** REGISTER_STASH: {@code StashInfo} → nothing. */
    static Call<Void> registerStash(StashInfo stash) {
        return Call.of(Op.REGISTER_STASH, w -> stash(w, stash));
    }

    static void applyRegisterStash(Entry e, Wire.Reader in, Wire.Writer out) {
        registerStash(e, stash(in));
    }

    /** LIST_VAULTS: nothing → list of VaultInfo. */
    static Call<List<VaultInfo>> listVaults() {
        return new Call<>(Op.LIST_VAULTS, w -> { }, r -> Codec.list(r, ClusterMap::vault));
    }

    static void answerListVaults(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) {
        Codec.list(out, listVaults(r), ClusterMap::vault);
    }

    /** LIST_STASHES: nothing → list of StashInfo. */
    static Call<List<StashInfo>> listStashes() {
        return new Call<>(Op.LIST_STASHES, w -> { }, r -> Codec.list(r, ClusterMap::stash));
    }

    static void answerListStashes(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) {
        Codec.list(out, listStashes(r), ClusterMap::stash);
    }

    /** SET_POD_STATE: {@code i32 vaultId | u8 shardIndex | u8 PodState} → PodStatus. */
    static Call<PodStatus> setPodState(int vaultId, int shardIndex, PodState state) {
        Objects.requireNonNull(state, "state");
        if (vaultId < 0 || shardIndex < 0 || shardIndex > 254) {
            throw new IllegalArgumentException("no such pod " + vaultId + "/" + shardIndex);
        }
        return new Call<>(Op.SET_POD_STATE, w -> w.i32(vaultId).u8(shardIndex).u8(state.wire()), ClusterMap::podStatus);
    }

    static void applySetPodState(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        podStatus(out, setPodState(e, in.i32(), in.u8(), PodState.ofWire(in.u8())));
    }

    /** LIST_POD_STATES: nothing → list of PodStatus (pods not UP). */
    static Call<List<PodStatus>> listPodStates() {
        return new Call<>(Op.LIST_POD_STATES, w -> { }, r -> Codec.list(r, ClusterMap::podStatus));
    }

    static void answerListPodStates(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) {
        Codec.list(out, listPodStates(r), ClusterMap::podStatus);
    }

    /** ALLOCATE_FILE_IDS: {@code i32 vaultId | i32 count} → FileIdRange. */
    static Call<FileIdRange> allocateFileIds(int vaultId, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be >= 1: " + count);
        }
        return new Call<>(Op.ALLOCATE_FILE_IDS, w -> w.i32(vaultId).i32(count), ClusterMap::fileIdRange);
    }

    static void applyAllocateFileIds(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        fileIdRange(out, allocateFileIds(e, in.i32(), in.i32()));
    }
}
