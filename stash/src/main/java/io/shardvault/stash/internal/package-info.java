/**
 * The stash server's machinery: the RocksDB store behind {@link io.shardvault.stash.internal.ShardStore},
 * its value formats ({@link io.shardvault.stash.internal.EntryFormat}), the group-commit writer,
 * occupancy accounting, metrics and the RPC translation. Other modules never import this package; its one
 * class in stash-api, {@code StashWire}, is the codec the server shares with {@code StashClient}.
 */
package io.shardvault.stash.internal;
