/**
 * Test fixtures of the coordinator, shipped in its test-jar for it/: {@link
 * io.shardvault.coordinator.testing.MiniCluster}, a whole vault of real pods and real stash servers on
 * loopback in one JVM.
 */
package io.shardvault.coordinator.testing;
