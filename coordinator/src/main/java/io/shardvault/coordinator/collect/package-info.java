/**
 * Orphan collection (issue #20, section 5): shards on pods and entries in the stash that no catalog entry
 * references are deleted, after a grace period and behind a fence in the catalog that no commit can pass.
 * docs/OPERATIONS.md, "Orphan collection", has the argument.
 */
package io.shardvault.coordinator.collect;
