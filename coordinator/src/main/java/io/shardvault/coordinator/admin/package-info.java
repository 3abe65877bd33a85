/**
 * The coordinator's JMX console (issue #10): MXBeans under {@code io.shardvault:type=…,name=…}
 * that show the cluster, its vaults, pods, stash and catalog, and let an operator drain or mark
 * pods, manage access keys, snapshot the catalog and move its leadership. Their attributes are
 * composite data made of the {@code *View} types here. {@link io.shardvault.coordinator.admin.CoordinatorAdmin}
 * registers them and serves them remotely when {@code jmx.remote.enabled}; the {@code cli}
 * subpackage is the {@code shardvault admin} command that talks to them.
 */
package io.shardvault.coordinator.admin;
