/**
 * The pod's machinery; no other module imports it (its one class in pod-api, {@code PodWire}, is the codec
 * the server shares with {@code PodClient}). Tomes behind the {@link io.shardvault.pod.internal.TomeIo}
 * seam, shard files, the flush queue and flusher, the durable purge queue and its sender, and
 * start-up recovery from the stash.
 */
package io.shardvault.pod.internal;
