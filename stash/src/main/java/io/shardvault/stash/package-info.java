/**
 * The stash: SSD servers that keep a synced copy of each small file's shards until the pod holding
 * the shard has fsynced it and sent a purge event.
 *
 * <p>Contracts: {@link io.shardvault.stash.api.StashClient} (the five ops, see
 * {@link io.shardvault.stash.api.StashOps} for their wire layouts), {@link io.shardvault.stash.api.StashPlacement}
 * (which server holds a pod slot's copies), the wire records and the codec they share with the server
 * ({@code api.internal.StashWire}) ship in the stash-api module, which callers (the coordinator, pods)
 * depend on instead of this server module; {@link io.shardvault.stash.StashServer} and its
 * {@link io.shardvault.stash.StashConfig}, and the {@link io.shardvault.stash.StashMain} program.
 * Implementations live in {@code io.shardvault.stash.internal}.
 */
package io.shardvault.stash;
