/**
 * The S3 operations: routing by method and query, then one small handler per operation that maps
 * the request to an {@link io.shardvault.s3.ObjectStore} call and its result to headers and XML.
 */
package io.shardvault.s3.internal.ops;
