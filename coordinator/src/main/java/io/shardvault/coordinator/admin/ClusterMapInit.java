package io.shardvault.coordinator.admin;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The work behind {@link CatalogMXBean#initMap} ({@code shardvault init --map FILE}): registers a cluster map
 * file's text in the catalog, in one catalog command, and checks its catalog peers against the Raft group's.
 */
@FunctionalInterface
public interface ClusterMapInit {
    /**
     * Completes with what was done, one sentence a line (the first says whether anything changed); fails
     * with the catalog's CONFLICT, naming each difference, when the map disagrees with the catalog's.
     *
     * @throws IllegalArgumentException when {@code mapText} is not a valid cluster map
     */
    CompletableFuture<List<String>> init(String mapText);
}
