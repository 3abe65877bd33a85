/**
 * The checksum functions S3 uses (CRC32, CRC32C, CRC64NVME, SHA-1, SHA-256, MD5) behind one
 * incremental interface, and CRC combination for full-object multipart checksums.
 */
package io.shardvault.s3.internal.checksum;
