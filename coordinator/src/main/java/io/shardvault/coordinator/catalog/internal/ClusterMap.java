package io.shardvault.coordinator.catalog.internal;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.catalog.FileIdRange;
import io.shardvault.coordinator.catalog.PodInfo;
import io.shardvault.coordinator.catalog.PodState;
import io.shardvault.coordinator.catalog.PodStatus;
import io.shardvault.coordinator.catalog.StashInfo;
import io.shardvault.coordinator.catalog.VaultInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
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
