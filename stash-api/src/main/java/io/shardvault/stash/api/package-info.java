/**
 * What a caller of the stash service needs and nothing of the server: {@link io.shardvault.stash.api.StashClient},
 * the op codes and wire layouts ({@link io.shardvault.stash.api.StashOps}), placement
 * ({@link io.shardvault.stash.api.StashPlacement}) and the records they carry. A package of its own, apart
 * from the server's {@code io.shardvault.stash}, so no package is split across two modules.
 */
package io.shardvault.stash.api;
