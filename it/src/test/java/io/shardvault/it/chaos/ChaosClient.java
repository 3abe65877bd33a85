package io.shardvault.it.chaos;

import static io.shardvault.common.erasure.TestData.sha256;

import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * One of a chaos run's clients: a seeded random mix of puts, conditional puts (If-None-Match: *), one-part
 * multipart uploads, gets, deletes and listings on {@link #KEYS} of the run's buckets, each recorded in the
 * {@link History} with its outcome, until told to stop. The client's SDK must not retry (see {@link
 * io.shardvault.it.process.ProcessCluster#s3ClientWithoutRetries}): an attempt the history does not show
 * could have written. Bodies are 1 KiB to 300 KiB, each unique (its first bytes name client and op). Runs on
 * one thread.
 *
 * <p>With several coordinators the client starts on its own ({@code id} modulo their number); when one gives no
 * answer at all (refused, reset, timed out) it moves to the next and tries the same kind of op on the same key
 * there, each attempt its own history line (a write's with a new body), at most once per coordinator.
 */
public final class ChaosClient implements Runnable {
    /** A small key space, so that clients collide on keys and the checker has something to decide. */
    public static final List<String> KEYS = IntStream.range(0, 8).mapToObj(i -> "k" + i).collect(Collectors.toList());
    private static final int MIN_BODY = 1024;
    private static final int MAX_BODY = 300 * 1024;
    private static final Duration BACK_OFF = Duration.ofMillis(500);

    private final int id;
    /** One SDK client per coordinator, by index. */
    private final List<S3Client> coordinators;
    /** The coordinator in use. */
    private int at;
    private final List<String> buckets;
    private final History history;
    private final SplittableRandom random;
    private final BooleanSupplier stopped;
    private int sequence;

    public ChaosClient(int id, List<S3Client> coordinators, List<String> buckets, History history, long seed,
                       BooleanSupplier stopped) {
        this.id = id;
        this.coordinators = List.copyOf(coordinators);
        this.at = id % coordinators.size();
        this.buckets = buckets;
        this.history = history;
        this.random = new SplittableRandom(seed);
        this.stopped = stopped;
    }

    @Override
    public void run() {
        while (!stopped.getAsBoolean()) {
            String bucket = buckets.get(random.nextInt(buckets.size()));
            String key = KEYS.get(random.nextInt(KEYS.size()));
            int dice = random.nextInt(100);
            for (int attempt = 0; attempt < coordinators.size() && !stopped.getAsBoolean(); attempt++) {
                if (call(bucket, key, dice)) {
                    break;
                }
                at = (at + 1) % coordinators.size();
            }
        }
    }

    /** One attempt of the op {@code dice} picks; false when the coordinator gave no answer at all. */
    private boolean call(String bucket, String key, int dice) {
        if (dice < 28) {
            return put(bucket, key, false);
        } else if (dice < 38) {
            return put(bucket, key, true);
        } else if (dice < 43) {
            return multipart(bucket, key);
        } else if (dice < 73) {
            return get(bucket, key);
        } else if (dice < 86) {
            return delete(bucket, key);
        }
        return list(bucket);
    }

    private S3Client s3() {
        return coordinators.get(at);
    }

    /** What a call returned: the digest written or read, the version, the listing. */
    private record Result(String digest, String versionId, int status, List<String> keys) {
        static Result of(String digest, String versionId) {
            return new Result(digest, versionId, 200, List.of());
        }
    }

    private boolean put(String bucket, String key, boolean conditional) {
        byte[] body = body();
        String digest = sha256(body);
        return record(conditional ? "cput" : "put", bucket, key, digest, () -> Result.of(digest, s3().putObject(b -> {
            b.bucket(bucket).key(key);
            if (conditional) {
                b.ifNoneMatch("*");
            }
        }, RequestBody.fromBytes(body)).versionId()));
    }

    /**
     * A one-part upload: the last part has no minimum size, every other one has 5 MiB (too big for a quick
     * run). Until Complete is sent the object cannot appear, so a failed Create or UploadPart, whatever its
     * kind, is a definite failure of the whole; the recorded times and outcome are Complete's.
     */
    private boolean multipart(String bucket, String key) {
        byte[] body = body();
        String digest = sha256(body);
        String uploadId;
        String etag;
        S3Client s3 = s3();
        try {
            uploadId = s3.createMultipartUpload(b -> b.bucket(bucket).key(key)).uploadId();
            etag = s3.uploadPart(b -> b.bucket(bucket).key(key).uploadId(uploadId).partNumber(1),
                    RequestBody.fromBytes(body)).eTag();
        } catch (SdkException e) {
            long now = history.now();
            history.record(new Op(id, at, "mpu", bucket, key, digest, null, now, now, Op.FAIL, status(e), List.of(),
                    "before Complete: " + describe(e)));
            backOff(e);
            return status(e) != 0;
        }
        CompletedPart part = CompletedPart.builder().partNumber(1).eTag(etag).build();
        return record("mpu", bucket, key, digest, () -> Result.of(digest, s3.completeMultipartUpload(b -> b
                .bucket(bucket).key(key).uploadId(uploadId).multipartUpload(u -> u.parts(part))).versionId()));
    }

    private boolean get(String bucket, String key) {
        return record("get", bucket, key, null, () -> {
            try {
                var object = s3().getObjectAsBytes(b -> b.bucket(bucket).key(key));
                return Result.of(sha256(object.asByteArray()), object.response().versionId());
            } catch (NoSuchKeyException e) {
                return new Result(null, null, 404, List.of());
            }
        });
    }

    private boolean delete(String bucket, String key) {
        return record("delete", bucket, key, null, () -> new Result(null,
                s3().deleteObject(b -> b.bucket(bucket).key(key)).versionId(), 204, List.of()));
    }

    private boolean list(String bucket) {
        return record("list", bucket, null, null, () -> new Result(null, null, 200,
                s3().listObjectsV2(b -> b.bucket(bucket)).contents().stream().map(o -> o.key())
                        .collect(Collectors.toList())));
    }

    /** Runs and records {@code call}; false when it got no answer at all (no HTTP status). */
    private boolean record(String op, String bucket, String key, String digest, Supplier<Result> call) {
        long invoke = history.now();
        Op done;
        try {
            Result r = call.get();
            done = new Op(id, at, op, bucket, key, r.digest(), r.versionId(), invoke, history.now(), Op.OK,
                    r.status(), r.keys(), null);
        } catch (SdkException e) {
            // Only the writes carry a digest, and a body.
            done = new Op(id, at, op, bucket, key, digest, null, invoke, history.now(), outcome(e, digest != null),
                    status(e), List.of(), describe(e));
            backOff(e);
        }
        history.record(done);
        return done.status() != 0;
    }

    /**
     * A pause after no answer at all: without it a client spins on refused connections while the coordinator
     * restarts, and tens of thousands of failed calls say no more than a few.
     */
    private static void backOff(SdkException e) {
        if (status(e) == 0) {
            try {
                Thread.sleep(BACK_OFF.toMillis());
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * A refused connection is a definite failure only for a request with a body: the JDK's HttpURLConnection
     * (the SDK's URL-connection client) silently sends a request without one (GET, DELETE) again on a new
     * connection when the one it reused fails before an answer, so a DELETE the coordinator applied just before
     * it was killed comes back as "connection refused" (seed 7's soak: a delete marker no history line
     * explained). A body is streamed, and a streamed request is never resent. A 4xx is a definite answer (the
     * request was refused, or, 412, its condition did not hold) but for 408 and 429, which say nothing of the
     * request's fate; a 5xx or no answer at all (a timeout, a reset connection, a body cut short) may or may
     * not have taken effect.
     */
    static String outcome(SdkException e, boolean hasBody) {
        for (Throwable cause = e; hasBody && cause != null; cause = cause.getCause()) {
            if (cause instanceof ConnectException) {
                return Op.FAIL;
            }
        }
        int status = status(e);
        return status >= 400 && status < 500 && status != 408 && status != 429 ? Op.FAIL : Op.UNKNOWN;
    }

    private static int status(SdkException e) {
        return e instanceof AwsServiceException service ? service.statusCode() : 0;
    }

    private static String describe(SdkException e) {
        if (e instanceof AwsServiceException service && service.awsErrorDetails() != null) {
            // A 5xx's message names its cause (an InternalError's the failure's code or class): without it a
            // history cannot tell one server failure from another once the run's logs are gone.
            return service.awsErrorDetails().errorCode()
                    + (service.statusCode() >= 500 ? ": " + service.awsErrorDetails().errorMessage() : "");
        }
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    private byte[] body() {
        byte[] body = new byte[random.nextInt(MIN_BODY, MAX_BODY + 1)];
        random.nextBytes(body);
        byte[] name = ("client " + id + " op " + sequence++ + "\n").getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(name, 0, body, 0, name.length);
        return body;
    }
}
