/**
 * The catalog: the cluster's only shared state, replicated by Apache Ratis.
 *
 * <p>It records buckets, object versions and the files they point to, multipart uploads and
 * their parts, vaults with their pods and stash servers, access keys, file reference counts and
 * the queue of files to delete. Every change is one Raft log entry applied atomically; every read
 * is linearizable (Ratis ReadIndex). Start a peer with
 * {@link io.shardvault.coordinator.catalog.internal.RatisCatalogServer#start} (the composition root's one
 * reference to the implementation, so this package never imports it) and use its
 * {@link io.shardvault.coordinator.catalog.Catalog} view; see {@code docs/CATALOG.md} for the
 * key layout, the read reasoning and the snapshot scheme.
 *
 * <p>Failures are {@link io.shardvault.coordinator.catalog.CatalogException}s carrying a stable
 * {@link io.shardvault.common.ErrorCode}; the S3 edge maps them to S3 errors.
 */
package io.shardvault.coordinator.catalog;
