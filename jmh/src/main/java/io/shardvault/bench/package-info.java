/**
 * {@code shardvault bench}: an S3 load tool (issue #11) that drives any S3 endpoint through the AWS SDK for
 * Java v2 and reports latency percentiles, throughput, time-to-first-byte and a Veeam-like backup job, as a
 * terminal table, JSON, a TSV results file and PNG charts. Entry point: {@link io.shardvault.bench.BenchMain}.
 */
package io.shardvault.bench;
