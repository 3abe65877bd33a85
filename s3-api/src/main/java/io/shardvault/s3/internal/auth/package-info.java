/**
 * AWS Signature Version 4 verification: the Authorization header, presigned URLs, and the chained
 * signatures of aws-chunked bodies and their trailers; and Signature Version 2 (header and presigned
 * URLs) when enabled. Plain Java, no Netty channel types.
 */
package io.shardvault.s3.internal.auth;
