/**
 * Veeam's Smart Object Storage API (SOSAPI 1.0, issue #9): the two virtual objects every bucket
 * shows under {@value io.shardvault.s3.sosapi.SosapiObjects#PREFIX}, {@code system.xml} (the
 * protocol's capabilities and the block size and concurrency this cluster recommends) and
 * {@code capacity.xml} (capacity, free space and usage in bytes).
 *
 * <p>They are not stored: the S3 router sends reads of them here, refuses writes and deletes with
 * {@code AccessDenied}, and the listing operations merge them into the pages the store returns when
 * the listing's prefix and markers cover them ({@link io.shardvault.s3.sosapi.SosapiListings}).
 */
package io.shardvault.s3.sosapi;
