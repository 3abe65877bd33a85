/**
 * Veeam's Smart Object Storage API (SOSAPI 1.0, issue #9): the two virtual objects every bucket
 * shows under {@value io.shardvault.s3.sosapi.SosapiObjects#PREFIX}, {@code system.xml} (the
 * protocol's capabilities and the block size and concurrency this cluster recommends) and
 * {@code capacity.xml} (capacity, free space and usage in bytes).
 *
 * <p>They are not stored and they are Veeam's: the S3 router sends reads of them here (for any
 * caller that names them), refuses writes with {@code AccessDenied}, passes deletes to the store (a
 * delete of a key that does not exist, so it succeeds as S3's does), and the listing operations
 * merge them into the pages the store returns only for clients whose User-Agent
 * {@link io.shardvault.s3.sosapi.SosapiConfig#listsFor matches} {@code s3.sosapi.listingClients}
 * (Veeam's), when the listing's prefix and markers cover them
 * ({@link io.shardvault.s3.sosapi.SosapiListings}). Other tools never see them, so listing a bucket,
 * deleting everything listed and deleting the bucket works.
 */
package io.shardvault.s3.sosapi;
