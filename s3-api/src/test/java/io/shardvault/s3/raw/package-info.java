/** Raw HTTP tests: the bad inputs and protocol corners no SDK produces. */
package io.shardvault.s3.raw;
