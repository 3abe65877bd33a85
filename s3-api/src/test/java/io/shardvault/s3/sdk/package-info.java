/** End-to-end tests of the S3 server with the AWS SDK for Java v2 (sync and async clients). */
package io.shardvault.s3.sdk;
