/**
 * The storage pod: an HDD storage server holding shard {@code i} of every file of a vault, on its
 * tomes. Public contract: {@link io.shardvault.pod.api.PodClient} and {@link io.shardvault.pod.api.PodOps}
 * (the wire protocol; they and the wire records ship in the pod-api module, which callers depend on
 * instead of this server module), {@link io.shardvault.pod.PodServer} and {@link io.shardvault.pod.PodHost}
 * (one or many instances per process), {@link io.shardvault.pod.PodConfig} with
 * {@link io.shardvault.pod.PodConfigKeys}, and {@link io.shardvault.pod.PodMain}. On-disk formats are
 * in {@code docs/POD.md}.
 */
package io.shardvault.pod;
