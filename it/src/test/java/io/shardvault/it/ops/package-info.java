/**
 * Operating a real cluster: the admin ports' metrics and health answers, scraped over HTTP while
 * the AWS SDK drives S3 traffic (issue #10).
 */
package io.shardvault.it.ops;
