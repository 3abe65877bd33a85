/**
 * Test fixtures for the S3 protocol layer: an in-memory {@link io.shardvault.s3.ObjectStore}, a map
 * of credentials, and a server fixture on an ephemeral port.
 */
package io.shardvault.s3.testing;
