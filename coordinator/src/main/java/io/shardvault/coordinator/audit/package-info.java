/**
 * The S3 audit log's file (issue #24, item 3): the S3 endpoint writes one event per request to the
 * {@code shardvault.audit} logger; here the coordinator service gives that logger its rolling JSON
 * file, from the {@code audit.*} settings. docs/OPERATIONS.md, "The audit log", has the format.
 */
package io.shardvault.coordinator.audit;
