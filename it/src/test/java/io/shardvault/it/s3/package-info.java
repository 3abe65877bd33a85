/**
 * The S3 API against a real cluster on loopback: {@link io.shardvault.it.s3.S3Cluster} (MiniCluster's 20 pods
 * and 2 stash servers plus a real coordinator) driven by the AWS SDK for Java v2, and the child-JVM
 * large-upload test of issue #7.
 */
package io.shardvault.it.s3;
