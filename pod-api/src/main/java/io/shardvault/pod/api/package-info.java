/**
 * What a caller of the pod service needs and nothing of the server: {@link io.shardvault.pod.api.PodClient},
 * the op codes and wire layouts ({@link io.shardvault.pod.api.PodOps}), and the records they carry. A package
 * of its own, apart from the server's {@code io.shardvault.pod}, so no package is split across two modules.
 */
package io.shardvault.pod.api;
