/**
 * The pod's machinery; no other module imports it. Tomes behind the {@link io.shardvault.pod.internal.TomeIo}
 * seam, shard files, the flush queue and flusher, the durable purge queue and its sender, and
 * start-up recovery from the stash.
 */
package io.shardvault.pod.internal;
