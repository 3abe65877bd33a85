/**
 * The pod process's JMX console (issue #10): a {@link io.shardvault.pod.admin.PodHostMXBean} per
 * process showing each instance's unflushed bytes and purge queue, with an operation to make the
 * purge senders retry at once; served remotely when {@code jmx.remote.enabled}.
 */
package io.shardvault.pod.admin;
