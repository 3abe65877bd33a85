/**
 * Repair of degraded files (issue #20, section 2): the worker that rebuilds the shards queued in the
 * catalog's repair queue from k good ones and writes them durably to their pods, and the bounded,
 * deduplicating reporter through which reads queue the chunks they found corrupt or missing.
 */
package io.shardvault.coordinator.repair;
