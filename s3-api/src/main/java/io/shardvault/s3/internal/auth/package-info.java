/**
 * AWS Signature Version 4 verification: the Authorization header, presigned URLs, and the chained
 * signatures of aws-chunked bodies and their trailers. Plain Java, no Netty channel types.
 */
package io.shardvault.s3.internal.auth;
