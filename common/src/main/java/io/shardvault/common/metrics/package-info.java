/**
 * The process's meter registry: every meter a service registers is published over JMX (domain
 * {@code io.shardvault}) and in the Prometheus text format (served by the admin HTTP port, see
 * {@link io.shardvault.common.admin}).
 *
 * <p>Meter names follow Micrometer's dotted convention under {@code shardvault.}, with tags for
 * the variable parts; every meter carries the common tags {@code service} and {@code node}.
 */
package io.shardvault.common.metrics;
