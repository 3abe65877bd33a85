/**
 * JMX plumbing shared by the services: {@link io.shardvault.common.jmx.Description} and
 * {@link io.shardvault.common.jmx.DescribedMXBean} give MXBeans readable descriptions in JConsole,
 * {@link io.shardvault.common.jmx.JmxRemoteServer} exposes a process's MBean server over RMI
 * (off by default; password authentication, optional TLS, one fixed port), configured through
 * {@link io.shardvault.common.jmx.JmxRemoteConfigKeys}.
 */
package io.shardvault.common.jmx;
