/**
 * The S3 server's machinery: the Netty pipeline ({@link io.shardvault.s3.internal.S3ServerInitializer},
 * the thin {@link io.shardvault.s3.internal.S3ServerHandler}), request bodies with demand
 * ({@link io.shardvault.s3.internal.RequestBody}), and the plain-Java protocol work it delegates to:
 * request parsing, routing, operations, errors and metrics. Other modules never import it.
 */
package io.shardvault.s3.internal;
