/**
 * The coordinator's data paths (issue #7): how a file's bytes become erasure-coded shards on the
 * pods of a vault (and, for small files, synced copies on the stash), and how any byte range of a
 * file comes back, bit-exact, with up to m shards unavailable.
 *
 * <p>The contract: {@link io.shardvault.coordinator.data.DataPath} (write, read, delete),
 * {@link io.shardvault.coordinator.data.VaultLayout} (stripe and chunk arithmetic),
 * {@link io.shardvault.coordinator.data.StoredFile} (what the catalog records),
 * {@link io.shardvault.coordinator.data.FileIdSource} (the catalog's id allocator), and the typed
 * settings {@link io.shardvault.coordinator.data.DataPathConfig}. The machinery lives in
 * {@code .internal}, which no other package imports.
 */
package io.shardvault.coordinator.data;
