package io.shardvault.s3.internal.auth;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.shardvault.s3.Credential;
import io.shardvault.s3.CredentialStore;
import io.shardvault.s3.internal.S3Error;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * What every signature version checks the same way: the access key (known, enabled) and the
 * request time (within the allowed skew of the server's clock). Thread-safe.
 */
public final class AccessKeys {
    private final CredentialStore credentials;
    private final Duration maxSkew;
    private final Clock clock;

    public AccessKeys(CredentialStore credentials, Duration maxSkew, Clock clock) {
        this.credentials = credentials;
        this.maxSkew = maxSkew;
        this.clock = clock;
    }

    /** Completes with the enabled key of this id, or fails with InvalidAccessKeyId or AccessDenied. */
    CompletableFuture<Credential> find(String accessKeyId) {
        return credentials.find(accessKeyId).thenApply(found -> {
            Credential credential = found.orElseThrow(() -> new S3Error("InvalidAccessKeyId",
                    HttpResponseStatus.FORBIDDEN, "The AWS Access Key Id you provided does not exist in our records.")
                    .with("AWSAccessKeyId", accessKeyId));
            if (!credential.enabled()) {
                throw S3Error.accessDenied("The access key is disabled.");
            }
            return credential;
        });
    }

    /** Refuses a request time further than the allowed skew from now: RequestTimeTooSkewed. */
    void checkSkew(Instant requestTime, String shownAs) {
        Instant now = clock.instant();
        if (Duration.between(requestTime, now).abs().compareTo(maxSkew) > 0) {
            throw new S3Error("RequestTimeTooSkewed", HttpResponseStatus.FORBIDDEN,
                    "The difference between the request time and the current time is too large.")
                    .with("RequestTime", shownAs).with("ServerTime", now.toString())
                    .with("MaxAllowedSkewMilliseconds", Long.toString(maxSkew.toMillis()));
        }
    }

    Duration maxSkew() {
        return maxSkew;
    }

    Clock clock() {
        return clock;
    }
}
