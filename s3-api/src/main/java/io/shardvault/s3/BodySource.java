package io.shardvault.s3;

import io.netty.buffer.ByteBuf;
import java.util.concurrent.CompletableFuture;

/**
 * The body of a PutObject or UploadPart, pulled by the store chunk by chunk. The server reads the
 * client's socket only while the store asks for more, so a slow store slows the client instead of
 * filling memory. The bytes are the object's bytes: aws-chunked framing is already removed and chunk
 * signatures already checked.
 *
 * <p>Integrity: the server computes the MD5 (the ETag) and every checksum the client declared while
 * the bytes pass. The final {@link #read()} (the one that completes with {@code null}) completes only
 * once every declared digest (Content-MD5, {@code x-amz-checksum-*} header or trailer) matched and
 * the byte count equals the declared length; otherwise it fails. <b>A store must therefore never
 * commit an object before {@code read()} has completed with {@code null}.</b>
 *
 * <p>Not thread-safe: one reader at a time, at most one {@code read()} outstanding.
 */
public interface BodySource {
    /**
     * The number of object bytes the client declared (after aws-chunked decoding), or -1 when it declared
     * none: a {@code Transfer-Encoding: chunked} body, whose length is known only at its end
     * ({@link BodyDigests#size()}), and never more than S3's 5 GiB (a longer one fails the read that crosses it).
     */
    long contentLength();

    /**
     * Completes with the next chunk, which the caller owns and must release, or with {@code null} at
     * the end of a body that passed every check. Fails with the body's error (the S3 server answers
     * it as {@code BadDigest}, {@code IncompleteBody}, {@code SignatureDoesNotMatch} and so on), after
     * which the source is finished. Completion may happen on a Netty event loop: do not block in
     * dependent stages; hop to an executor for slow work.
     */
    CompletableFuture<ByteBuf> read();

    /**
     * The digests of the whole body; valid only after {@link #read()} completed with {@code null}.
     */
    BodyDigests digests();

    /**
     * Tells the server the store will read no more (it failed, or the answer is known without the
     * body). The server discards or refuses the rest and closes the connection if it cannot drain it.
     * Idempotent; harmless after the end.
     */
    void discard();
}
