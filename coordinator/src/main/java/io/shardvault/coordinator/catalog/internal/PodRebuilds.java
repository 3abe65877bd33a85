package io.shardvault.coordinator.catalog.internal;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.catalog.PodInfo;
import io.shardvault.coordinator.catalog.PodRebuildJob;
import io.shardvault.coordinator.catalog.PodRebuildJob.State;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.rocksdb.RocksIterator;

/**
 * Pod rebuild jobs (issue #20, section 3), one row per pod in {@link Table#POD_REBUILDS}: the job's
 * target, source (a decommission's), state and checkpoint, so that whichever coordinator leads resumes it.
 *
 * <pre>
 *  key   := u32 vaultId | u8 shardIndex
 *  value := u8 format (2) | u32 vaultId | u8 shardIndex | i64 jobId | str targetHost | i32 targetPort
 *           | bool checkOnly | u8 state | i64 position | i64 filesDone | i64 shardsRebuilt | i64 bytesRebuilt
 *           | i64 failures | i64 filesTotal | i64 startedAt, epoch ms | i64 updatedAt, epoch ms
 *           | str sourceHost | i32 sourcePort                      (format 2; "" and 0 for a rebuild)
 * </pre>
 *
 * Format 1 (before decommission) has no source: it reads as a rebuild's. A rebuild start ({@code
 * POD_REBUILD_START}) and a decommission start ({@code POD_DECOMMISSION_START}, which names the source)
 * refuse a pod whose job still runs, and otherwise replaces its row
 * with a fresh one whose id is the start's log index. A checkpoint ({@code POD_REBUILD_CHECKPOINT}) names
 * that id and may only move the position forward: a coordinator that lost the lead and checkpoints late,
 * or a job replaced meanwhile, gets {@code CONFLICT} and stops. The checkpoint that marks a decommission
 * DONE also moves the pod to the job's target in {@link Table#PODS}, in the same entry: the cluster map
 * switches to the replacement exactly when the copy is complete. The table is a column family of its own:
 * stores and snapshots written before it existed open with it empty.
 *
 * <p>Deterministic and stateless, as every catalog subject.
 */
final class PodRebuilds {
    /** Format 2 adds the source (decommission); format 1 rows read as rebuilds. */
    private static final int FORMAT = 2;
    private static final int FORMAT_NO_SOURCE = 1;

    private PodRebuilds() {
    }

    static void job(Wire.Writer w, PodRebuildJob j) {
        w.u8(FORMAT).i32(j.vaultId()).u8(j.shardIndex()).i64(j.jobId()).str(j.targetHost()).i32(j.targetPort())
                .bool(j.checkOnly()).u8(j.state().wire()).i64(j.position()).i64(j.filesDone())
                .i64(j.shardsRebuilt()).i64(j.bytesRebuilt()).i64(j.failures()).i64(j.filesTotal());
        Codec.instant(w, j.startedAt());
        Codec.instant(w, j.updatedAt());
        w.str(j.sourceHost()).i32(j.sourcePort());
    }

    static PodRebuildJob job(Wire.Reader r) {
        int format = r.u8();
        if (format != FORMAT && format != FORMAT_NO_SOURCE) {
            throw new IllegalArgumentException("unknown pod rebuild format " + format);
        }
        int vaultId = r.i32();
        int shardIndex = r.u8();
        long jobId = r.i64();
        String targetHost = r.str();
        int targetPort = r.i32();
        boolean checkOnly = r.bool();
        State state = State.ofWire(r.u8());
        long position = r.i64();
        long filesDone = r.i64();
        long shardsRebuilt = r.i64();
        long bytesRebuilt = r.i64();
        long failures = r.i64();
        long filesTotal = r.i64();
        Instant startedAt = Codec.instant(r);
        Instant updatedAt = Codec.instant(r);
        String sourceHost = format == FORMAT ? r.str() : "";
        int sourcePort = format == FORMAT ? r.i32() : 0;
        return new PodRebuildJob(vaultId, shardIndex, jobId, targetHost, targetPort, sourceHost, sourcePort, checkOnly,
                state, position, filesDone, shardsRebuilt, bytesRebuilt, failures, filesTotal, startedAt, updatedAt);
    }

    /** The pod's last rebuild or decommission, or null when it never had one. */
    static PodRebuildJob stored(RocksCatalogStore.Reads r, int vaultId, int shardIndex) {
        byte[] v = r.get(Table.POD_REBUILDS, Keys.podKey(vaultId, shardIndex));
        return v == null ? null : job(new Wire.Reader(v));
    }

    private static PodRebuildJob put(Entry e, PodRebuildJob j) {
        Wire.Writer w = new Wire.Writer();
        job(w, j);
        e.txn().put(Table.POD_REBUILDS, Keys.podKey(j.vaultId(), j.shardIndex()), w.toByteArray());
        return j;
    }

    static PodRebuildJob start(Entry e, int vaultId, int shardIndex, String host, int port, String sourceHost,
                               int sourcePort, boolean checkOnly, long filesTotal) throws CatalogException {
        if (e.txn().get(Table.PODS, Keys.podKey(vaultId, shardIndex)) == null) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "no pod " + shardIndex + " registered in vault "
                    + vaultId);
        }
        PodRebuildJob old = stored(e.txn(), vaultId, shardIndex);
        if (old != null && old.state() == State.RUNNING) {
            throw new CatalogException(ErrorCode.CONFLICT, "pod " + shardIndex + " of vault " + vaultId
                    + " is being rebuilt already (job " + old.jobId() + ", " + old.filesDone() + " files done)");
        }
        return put(e, new PodRebuildJob(vaultId, shardIndex, e.index(), host, port, sourceHost, sourcePort, checkOnly,
                State.RUNNING, -1, 0, 0, 0, 0, Math.max(0, filesTotal), e.time(), e.time()));
    }

    static PodRebuildJob checkpoint(Entry e, PodRebuildJob next) throws CatalogException {
        PodRebuildJob old = stored(e.txn(), next.vaultId(), next.shardIndex());
        if (old == null || old.jobId() != next.jobId() || old.state() != State.RUNNING) {
            throw new CatalogException(ErrorCode.CONFLICT, "pod rebuild job " + next.jobId() + " of pod "
                    + next.shardIndex() + " in vault " + next.vaultId() + " is not running");
        }
        if (next.position() < old.position()) {
            throw new CatalogException(ErrorCode.CONFLICT, "pod rebuild job " + next.jobId() + " is already past "
                    + old.position() + " (checkpoint at " + next.position() + " refused)");
        }
        PodRebuildJob row = put(e, new PodRebuildJob(old.vaultId(), old.shardIndex(), old.jobId(), old.targetHost(),
                old.targetPort(), old.sourceHost(), old.sourcePort(), old.checkOnly(), next.state(), next.position(), next.filesDone(),
                next.shardsRebuilt(), next.bytesRebuilt(), next.failures(), old.filesTotal(), old.startedAt(),
                e.time()));
        if (row.state() == State.DONE && row.copies()) {
            // The map switches in the entry that ends the copy: no reader sees the job DONE and the old address.
            ClusterMap.recordDecommissionMove(e, row.vaultId(), row.shardIndex(), row.sourceHost(), row.sourcePort());
            ClusterMap.registerPod(e, new PodInfo(row.vaultId(), row.shardIndex(), row.targetHost(), row.targetPort()));
        }
        return row;
    }

    static List<PodRebuildJob> list(RocksCatalogStore.Reads r) {
        List<PodRebuildJob> out = new ArrayList<>();
        try (RocksIterator it = r.iterator(Table.POD_REBUILDS)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                out.add(job(new Wire.Reader(it.value())));
            }
        }
        return out;
    }

    // ---- commands: each client call (its fields and reply) beside the peer's handler ----

    /**
     * POD_REBUILD_START: {@code i32 vaultId | u8 shardIndex | str host | i32 port | bool checkOnly
     * | i64 filesTotal} → PodRebuildJob.
     */
    static Call<PodRebuildJob> start(int vaultId, int shardIndex, String host, int port, boolean checkOnly,
                                     long filesTotal) {
        Objects.requireNonNull(host, "host");
        if (vaultId < 0 || shardIndex < 0 || shardIndex > 254) {
            throw new IllegalArgumentException("no such pod " + vaultId + "/" + shardIndex);
        }
        return new Call<>(Op.POD_REBUILD_START, w -> w.i32(vaultId).u8(shardIndex).str(host).i32(port)
                .bool(checkOnly).i64(filesTotal), PodRebuilds::job);
    }

    static void applyStart(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        job(out, start(e, in.i32(), in.u8(), in.str(), in.i32(), "", 0, in.bool(), in.i64()));
    }

    /**
     * POD_DECOMMISSION_START: {@code i32 vaultId | u8 shardIndex | str host | i32 port | str sourceHost
     * | i32 sourcePort | i64 filesTotal} → PodRebuildJob: a job that copies the pod's shards from the
     * source (the pod being retired) onto {@code host:port} (its replacement).
     */
    static Call<PodRebuildJob> decommission(int vaultId, int shardIndex, String host, int port, String sourceHost,
                                            int sourcePort, long filesTotal) {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(sourceHost, "sourceHost");
        if (vaultId < 0 || shardIndex < 0 || shardIndex > 254) {
            throw new IllegalArgumentException("no such pod " + vaultId + "/" + shardIndex);
        }
        if (sourceHost.isEmpty() || sourceHost.equals(host) && sourcePort == port) {
            throw new IllegalArgumentException("a decommission copies onto another address than its source's: "
                    + sourceHost + ":" + sourcePort + " onto " + host + ":" + port);
        }
        return new Call<>(Op.POD_DECOMMISSION_START, w -> w.i32(vaultId).u8(shardIndex).str(host).i32(port)
                .str(sourceHost).i32(sourcePort).i64(filesTotal), PodRebuilds::job);
    }

    static void applyDecommissionStart(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        job(out, start(e, in.i32(), in.u8(), in.str(), in.i32(), in.str(), in.i32(), false, in.i64()));
    }

    /** POD_REBUILD_CHECKPOINT: {@code PodRebuildJob} (its id, state, position and counters count) → PodRebuildJob. */
    static Call<PodRebuildJob> checkpoint(PodRebuildJob job) {
        Objects.requireNonNull(job, "job");
        return new Call<>(Op.POD_REBUILD_CHECKPOINT, w -> job(w, job), PodRebuilds::job);
    }

    static void applyCheckpoint(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        job(out, checkpoint(e, job(in)));
    }

    /** LIST_POD_REBUILDS: nothing → list of PodRebuildJob, by vault and shard index. */
    static Call<List<PodRebuildJob>> list() {
        return new Call<>(Op.LIST_POD_REBUILDS, w -> { }, r -> Codec.list(r, PodRebuilds::job));
    }

    static void answerList(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) {
        Codec.list(out, list(r), PodRebuilds::job);
    }
}
