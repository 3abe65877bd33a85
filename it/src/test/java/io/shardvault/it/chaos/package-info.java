/**
 * Issue #23: a nemesis of random, seeded faults ({@link io.shardvault.it.chaos.Nemesis}) on a {@link
 * io.shardvault.it.process.ProcessCluster} while concurrent S3 clients ({@link io.shardvault.it.chaos.ChaosClient})
 * record every operation in a {@link io.shardvault.it.chaos.History}, checked for per-key linearizability by
 * the Go program under {@code it/src/test/go/chaoscheck} (Porcupine) and, after every fault is healed, by
 * {@link io.shardvault.it.chaos.PostHealCheck}.
 */
package io.shardvault.it.chaos;
