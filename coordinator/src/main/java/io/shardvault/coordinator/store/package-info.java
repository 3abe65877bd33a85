/**
 * The storage the S3 layer calls (issue #7): {@link io.shardvault.coordinator.store.CatalogObjectStore}
 * implements {@link io.shardvault.s3.ObjectStore} over the catalog (names, versions, uploads) and
 * the data paths (bytes), so the S3 code never sees shards, pods or the stash; it delegates to one
 * package-private store per subject (buckets, objects, uploads, locks), which share one mapper
 * between S3 and catalog types, one access check and one error translation (issue #19);
 * {@link io.shardvault.coordinator.store.FileReaper} deletes the shards of files the catalog released;
 * {@link io.shardvault.coordinator.store.CatalogCredentialStore} and
 * {@link io.shardvault.coordinator.store.CatalogFileIdSource} adapt the catalog to the S3 server's
 * key lookup and to the write path's id allocator.
 */
package io.shardvault.coordinator.store;
