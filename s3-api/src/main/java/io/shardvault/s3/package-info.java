/**
 * The S3 protocol library: its public contract.
 *
 * <p>{@link io.shardvault.s3.S3Server} serves S3 over HTTP(S) and calls two narrow interfaces that
 * the host process implements: {@link io.shardvault.s3.ObjectStore} (buckets, objects, listings,
 * multipart uploads) and {@link io.shardvault.s3.CredentialStore} (access keys). Everything S3-ish
 * (SigV4, aws-chunked bodies, checksums, XML, S3 error codes and HTTP statuses) stays on this side;
 * the store sees plain requests and fails with {@link io.shardvault.s3.ObjectStoreException}s
 * carrying {@link io.shardvault.common.ErrorCode}s.
 *
 * <p>Object bodies are streamed both ways, never held whole: a put hands the store a
 * {@link io.shardvault.s3.BodySource} it pulls from (the socket is read only as fast as the store
 * pulls), and a get takes an {@link io.shardvault.s3.ObjectContent} the server pulls from only as
 * fast as the socket drains.
 *
 * <p>The implementation lives in {@code io.shardvault.s3.internal}, which no other module imports.
 */
package io.shardvault.s3;
