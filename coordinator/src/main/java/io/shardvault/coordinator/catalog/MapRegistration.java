package io.shardvault.coordinator.catalog;

import java.util.List;

/**
 * What registering a whole cluster map ({@link Catalog#registerClusterMap}) did.
 *
 * @param changed whether anything was written: false when the catalog already held the map
 * @param notes what the operator should know, one sentence each: what was added, and each pod the catalog
 *     records elsewhere because a decommission moved it (the map file is then a decommission behind)
 */
public record MapRegistration(boolean changed, List<String> notes) {
    public MapRegistration {
        notes = List.copyOf(notes);
    }
}
