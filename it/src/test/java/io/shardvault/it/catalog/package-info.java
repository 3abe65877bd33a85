/**
 * The catalog's Raft group across real coordinator processes ({@link io.shardvault.it.process.ProcessCluster}
 * with several coordinators): reads and writes through any of them, losing the leader, membership changes.
 */
package io.shardvault.it.catalog;
