/**
 * {@code shardvault admin}: the operator's command line over the coordinator's JMX console
 * ({@link io.shardvault.coordinator.admin.cli.AdminCli}).
 */
package io.shardvault.coordinator.admin.cli;
