/** Unit tests of the S3 operations' request parsing. */
package io.shardvault.s3.internal.ops;
