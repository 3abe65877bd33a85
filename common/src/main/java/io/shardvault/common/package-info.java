/**
 * What every shardvault service shares: the {@link io.shardvault.common.ShardId} that keys a shard
 * everywhere, and the stable {@link io.shardvault.common.ErrorCode}s that cross process boundaries.
 * Subpackages hold the internal protocol ({@code rpc}), CRC32C ({@code crc}) and typed
 * configuration ({@code config}).
 */
package io.shardvault.common;
