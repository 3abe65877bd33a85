package io.shardvault.s3.internal.auth;

import io.shardvault.s3.Credential;

/**
 * What a verified request signature leaves for its body: the key and scope to verify chunk and
 * trailer signatures with, and the seed signature the chain starts from. A SigV2 request has no
 * chain (its body is unsigned, as with UNSIGNED-PAYLOAD): its context carries the credential alone.
 * Immutable.
 *
 * <p>An unsigned request has {@link #ANONYMOUS}: every field null (no key, nothing to verify a chunk with).
 *
 * @param credential the key that signed
 * @param signingKey the derived signing key, or null for SigV2
 * @param amzDate the request's timestamp, {@code yyyyMMdd'T'HHmmss'Z'}, or null for SigV2
 * @param scope {@code date/region/s3/aws4_request}, or null for SigV2
 * @param seedSignature the request's signature, or null for SigV2
 * @param presigned whether it came from a presigned URL
 */
public record SigningContext(Credential credential, byte[] signingKey, String amzDate, String scope,
                             String seedSignature, boolean presigned) {
    /** The context of a request that carried no credentials at all. */
    public static final SigningContext ANONYMOUS = new SigningContext(null, null, null, null, null, false);

    /** Whether the request was unsigned. */
    public boolean anonymous() {
        return credential == null;
    }

    /** The context of a SigV2 request: no chain for aws-chunked signatures. */
    static SigningContext sigV2(Credential credential, boolean presigned) {
        return new SigningContext(credential, null, null, null, null, presigned);
    }

    /** Whether signed aws-chunked bodies can be verified: false for SigV2. */
    public boolean chainsChunks() {
        return signingKey != null;
    }

    /** The string a chunk signature signs. */
    public String chunkStringToSign(String previousSignature, String chunkSha256Hex) {
        return "AWS4-HMAC-SHA256-PAYLOAD\n" + amzDate + "\n" + scope + "\n" + previousSignature + "\n"
                + SigV4.EMPTY_SHA256 + "\n" + chunkSha256Hex;
    }

    /** The string a trailer signature signs. */
    public String trailerStringToSign(String previousSignature, String trailerSha256Hex) {
        return "AWS4-HMAC-SHA256-TRAILER\n" + amzDate + "\n" + scope + "\n" + previousSignature + "\n"
                + trailerSha256Hex;
    }
}
