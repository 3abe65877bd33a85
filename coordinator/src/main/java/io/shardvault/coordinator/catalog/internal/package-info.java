/**
 * The catalog's machinery: the Ratis state machine, the RocksDB store behind it, the binary codec
 * of commands, results and stored records, and the Ratis-backed {@code Catalog} client. Other
 * modules never import this package.
 */
package io.shardvault.coordinator.catalog.internal;
