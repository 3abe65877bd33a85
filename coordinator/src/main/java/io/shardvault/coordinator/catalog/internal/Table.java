package io.shardvault.coordinator.catalog.internal;

import java.nio.charset.StandardCharsets;

/**
 * The catalog's RocksDB column families. Key layouts (big-endian integers, UTF-8 strings) are
 * described in {@code docs/CATALOG.md}; values are {@link Codec} encodings.
 */
enum Table {
    /** bucket name → Bucket. */
    BUCKETS("buckets"),
    /** u32 bucketId | key | 0x00 | u64 (MAX - seq) → StoredVersion: keys in byte order, versions newest first. */
    VERSIONS("versions"),
    /** u32 bucketId | key | 0x00 | u64 uploadSeq → MultipartUpload. */
    UPLOADS("uploads"),
    /** u64 uploadSeq | u16 partNumber → UploadedPart. */
    PARTS("parts"),
    /** u32 vaultId → VaultInfo (without pods). */
    VAULTS("vaults"),
    /** u32 vaultId | u8 shardIndex → PodInfo. */
    PODS("pods"),
    /** u32 vaultId | u8 shardIndex → u8 format (1) | u8 PodState | u64 since, epoch ms; absent: UP. */
    POD_STATES("pod_states"),
    /** stash id → StashInfo. */
    STASHES("stashes"),
    /** access key id → AccessKey. */
    ACCESS_KEYS("access_keys"),
    /** u32 vaultId | u64 fileId → u32 references | FileRef. */
    FILES("files"),
    /** u64 deletion seq → FileRef. */
    DELETIONS("deletions"),
    /**
     * counter name → u64 (bucket ids, file ids per vault, deletion seq, last applied term/index), and the
     * per-bucket settings: {@code bucketQuota/<id>} → u64, {@code bucketAcl/<id>} → UTF-8 canned ACL name;
     * {@code podMovedFrom/<vaultId>/<shardIndex>} → UTF-8 host:port,... the addresses decommissions moved the pod from.
     */
    COUNTERS("counters"),
    /** 16-byte request id (u64 client millis | u64 random) → the result bytes of the write. */
    REQUESTS("requests"),
    /**
     * u32 vaultId | u64 fileId → u8 fate ({@link OrphanFences}): RELEASED while the file waits in {@link #DELETIONS},
     * COLLECTED once the orphan collector fenced it; added after the others, empty in older stores.
     */
    FENCES("fences"),
    /** u32 vaultId | u64 fileId → RepairTask ({@link RepairQueue}); added after the others, empty in older stores. */
    REPAIRS("repairs"),
    /** u32 vaultId | u8 shardIndex → PodRebuildJob ({@link PodRebuilds}); added after the others, empty in older stores. */
    POD_REBUILDS("pod_rebuilds"),
    /**
     * account id → Account ({@link Accounts}): the accounts the admin created (legacy accounts have no row);
     * added after the others, empty in older stores.
     */
    ACCOUNTS("accounts");

    final String cfName;

    Table(String cfName) {
        this.cfName = cfName;
    }

    byte[] cfNameBytes() {
        return cfName.getBytes(StandardCharsets.UTF_8);
    }
}
