package io.shardvault.s3.internal.auth;

import io.shardvault.s3.Credential;

/**
 * What a verified request signature leaves for its body: the key and scope to verify chunk and
 * trailer signatures with, and the seed signature the chain starts from. Immutable.
 *
 * <p>An unsigned request has {@link #ANONYMOUS}: every field null (no key, nothing to verify a chunk with).
 *
 * @param credential the key that signed
 * @param signingKey the derived signing key
 * @param amzDate the request's timestamp, {@code yyyyMMdd'T'HHmmss'Z'}
 * @param scope {@code date/region/s3/aws4_request}
 * @param seedSignature the request's signature
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
