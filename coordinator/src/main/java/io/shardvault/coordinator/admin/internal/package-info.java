/** The console's MXBean implementations and the probes that fill their views; other packages never import these. */
package io.shardvault.coordinator.admin.internal;
