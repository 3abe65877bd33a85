/**
 * {@code shardvault certs}: the cluster CA and the service certificates that every internal hop's
 * mutual TLS presents and checks (issue #21). {@link io.shardvault.coordinator.certs.ClusterCa} does
 * the work in plain Java over Bouncy Castle; {@link io.shardvault.coordinator.certs.CertsCli} is its
 * command line.
 */
package io.shardvault.coordinator.certs;
