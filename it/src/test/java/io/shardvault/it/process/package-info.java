/**
 * A cluster of real service processes started from the reactor's fat JARs ({@link
 * io.shardvault.it.process.ProcessCluster}), for proofs that need a process to die: SIGTERM, SIGKILL, restarts.
 */
package io.shardvault.it.process;
