/**
 * The machinery behind {@link io.shardvault.coordinator.data.DataPath}: {@link
 * io.shardvault.coordinator.data.internal.ShardDataPath} wires it; {@code FileWrite} and
 * {@code StripeFanOut} are the write path, {@code FileRead} and {@code StripeRead} the read path,
 * {@code ShardDeleter} the delete path. No other package imports this one.
 */
package io.shardvault.coordinator.data.internal;
