/**
 * The stash: SSD servers that keep a synced copy of each small file's shards until the pod holding
 * the shard has fsynced it and sent a purge event.
 *
 * <p>Contracts: {@link io.shardvault.stash.StashClient} (the five ops, see
 * {@link io.shardvault.stash.StashOps} for their wire layouts), {@link io.shardvault.stash.StashPlacement}
 * (which server holds a pod slot's copies), {@link io.shardvault.stash.StashServer} and its
 * {@link io.shardvault.stash.StashConfig}, and the {@link io.shardvault.stash.StashMain} program.
 * Implementations live in {@code io.shardvault.stash.internal}.
 */
package io.shardvault.stash;
