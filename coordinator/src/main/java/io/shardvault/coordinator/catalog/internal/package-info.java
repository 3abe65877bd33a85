/**
 * The catalog's machinery (the Ratis state machine, the RocksDB store behind it, the Ratis-backed
 * {@code Catalog} client) and its subjects: one class per subject ({@code Buckets},
 * {@code ObjectVersions}, {@code ObjectListings}, {@code Uploads}, {@code ClusterMap},
 * {@code Accounts}, {@code AccessKeys}, {@code FileLifetimes}, {@code AclCommands}, {@code RepairQueue}),
 * each owning its commands, their encodings and its tables; {@code Op} registers them. Other modules never
 * import this package.
 */
package io.shardvault.coordinator.catalog.internal;
