/**
 * The coordinator process (issue #7): {@link io.shardvault.coordinator.CoordinatorMain} (the fat
 * JAR's entry point), {@link io.shardvault.coordinator.Coordinator} (starts and stops the catalog
 * peer, the data paths, the file reaper and the S3 endpoint) and its settings
 * ({@link io.shardvault.coordinator.CoordinatorConfigKeys}). The parts live in {@code .catalog},
 * {@code .data} and {@code .store}.
 */
package io.shardvault.coordinator;
