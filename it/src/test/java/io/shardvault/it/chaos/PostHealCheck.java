package io.shardvault.it.chaos;

import static io.shardvault.common.erasure.TestData.sha256;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectVersion;

/**
 * The checks of issue #23 once every fault is healed, over the history and the healed cluster:
 * <ul>
 *   <li>no read returned a body no one may have written (nor failed its checksum);</li>
 *   <li>each key's current object (read now, and recorded, so the linearizability check covers it too) is the
 *       one of a write or delete that may have been the last: an acknowledged write is readable unless an op
 *       acknowledged after it began, or one whose outcome is unknown, may have replaced it;</li>
 *   <li>ListObjectsV2 of each bucket names exactly the keys that read back;</li>
 *   <li>every version ListObjectVersions names reads back, with a body someone wrote to its key.</li>
 * </ul>
 * Reads here retry (bounded) until the cluster answers. Not thread-safe.
 */
public final class PostHealCheck {
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private final S3Client s3;
    private final int coordinator;
    private final History history;
    private final int client;
    private final List<String> violations = new ArrayList<>();

    /**
     * {@code s3}: a client of coordinator {@code coordinator}; {@code client}: the id its reads have in the
     * history (one past the workload's clients).
     */
    public PostHealCheck(S3Client s3, int coordinator, History history, int client) {
        this.s3 = s3;
        this.coordinator = coordinator;
        this.history = history;
        this.client = client;
    }

    /** Runs every check; returns the violations found, each a sentence naming bucket, key and ops. */
    public List<String> run(List<String> buckets, String versionedBucket) throws InterruptedException {
        Map<String, String> current = new HashMap<>();
        for (String bucket : buckets) {
            for (String key : ChaosClient.KEYS) {
                current.put(bucket + "/" + key, readNow(bucket, key));
            }
        }
        List<Op> ops = history.ops();
        checkReads(ops);
        for (String bucket : buckets) {
            for (String key : ChaosClient.KEYS) {
                checkCurrent(bucket, key, current.get(bucket + "/" + key), ops);
            }
            checkListing(bucket, current);
        }
        checkVersions(versionedBucket, ops);
        return List.copyOf(violations);
    }

    private void checkReads(List<Op> ops) {
        Map<String, Set<String>> written = new HashMap<>();
        for (Op op : ops) {
            if (op.writes() && op.mayHaveChanged()) {
                written.computeIfAbsent(op.bucket() + "/" + op.key(), k -> new HashSet<>()).add(op.digest());
            }
        }
        for (Op op : ops) {
            if ("get".equals(op.op()) && op.ok() && op.digest() != null
                    && !written.getOrDefault(op.bucket() + "/" + op.key(), Set.of()).contains(op.digest())) {
                violations.add("read of bytes no one wrote: " + op.toJson());
            }
            if (op.error() != null && op.error().toLowerCase().contains("checksum")) {
                violations.add("a body failed its checksum: " + op.toJson());
            }
        }
    }

    /**
     * An op that may have changed the key may be the last to have done so unless one acknowledged later
     * began after it was acknowledged; an unknown one may take effect at any time after its call. The key
     * may still be as it began (no object) unless some op that changes it was acknowledged.
     */
    private void checkCurrent(String bucket, String key, String digest, List<Op> ops) {
        List<Op> changes = ops.stream().filter(o -> bucket.equals(o.bucket()) && key.equals(o.key())
                && o.mayHaveChanged() && o.client() != client).collect(Collectors.toList());
        Set<String> allowed = new HashSet<>();
        boolean anyAcked = changes.stream().anyMatch(Op::ok);
        if (!anyAcked) {
            allowed.add(null);
        }
        for (Op x : changes) {
            long settled = x.ok() ? x.complete() : Long.MAX_VALUE;
            boolean superseded = changes.stream().anyMatch(y -> y.ok() && y.invoke() > settled);
            if (!superseded) {
                allowed.add(x.writes() ? x.digest() : null);
            }
        }
        if (!allowed.contains(digest)) {
            violations.add(bucket + "/" + key + " holds " + (digest == null ? "no object" : digest)
                    + " after healing; the last writes may have left only "
                    + allowed.stream().map(d -> d == null ? "no object" : d).collect(Collectors.toList()));
        }
    }

    private void checkListing(String bucket, Map<String, String> current) throws InterruptedException {
        long invoke = history.now();
        List<String> listed = untilAnswered(() -> s3.listObjectsV2(b -> b.bucket(bucket)).contents().stream()
                .map(o -> o.key()).sorted().collect(Collectors.toList()));
        history.record(new Op(client, coordinator, "list", bucket, null, null, null, invoke, history.now(), Op.OK,
                200, listed, null));
        Set<String> present = new TreeSet<>();
        for (String key : ChaosClient.KEYS) {
            if (current.get(bucket + "/" + key) != null) {
                present.add(key);
            }
        }
        if (!present.equals(new TreeSet<>(listed))) {
            violations.add("ListObjectsV2 of " + bucket + " after healing names " + listed + " but " + present
                    + " read back");
        }
    }

    private void checkVersions(String bucket, List<Op> ops) throws InterruptedException {
        long invoke = history.now();
        List<ObjectVersion> versions = untilAnswered(() -> s3.listObjectVersionsPaginator(b -> b.bucket(bucket))
                .versions().stream().collect(Collectors.toList()));
        history.record(new Op(client, coordinator, "versions", bucket, null, null, null, invoke, history.now(),
                Op.OK, 200, versions.stream().map(v -> v.key() + "@" + v.versionId()).collect(Collectors.toList()),
                null));
        for (ObjectVersion v : versions) {
            String digest = untilAnswered(() -> {
                try {
                    return sha256(s3.getObjectAsBytes(b -> b.bucket(bucket).key(v.key())
                            .versionId(v.versionId())).asByteArray());
                } catch (NoSuchKeyException e) {
                    return "missing";
                }
            });
            boolean written = ops.stream().anyMatch(o -> bucket.equals(o.bucket()) && v.key().equals(o.key())
                    && o.writes() && o.mayHaveChanged() && Objects.equals(o.digest(), digest));
            if (!written) {
                violations.add("version " + v.versionId() + " of " + bucket + "/" + v.key() + " is listed but reads "
                        + ("missing".equals(digest) ? "as missing" : "bytes no one wrote: " + digest));
            }
        }
    }

    /** The key's current object's digest (null: none), recorded as a get of this client's. */
    private String readNow(String bucket, String key) throws InterruptedException {
        long invoke = history.now();
        String[] version = new String[1];
        String digest = untilAnswered(() -> {
            try {
                var object = s3.getObjectAsBytes(b -> b.bucket(bucket).key(key));
                version[0] = object.response().versionId();
                return sha256(object.asByteArray());
            } catch (NoSuchKeyException e) {
                return null;
            }
        });
        history.record(new Op(client, coordinator, "get", bucket, key, digest, version[0], invoke, history.now(),
                Op.OK, digest == null ? 404 : 200, List.of(), null));
        return digest;
    }

    /** {@code call}'s answer, asked again while the cluster fails to give one, for up to {@link #PATIENCE}. */
    private static <T> T untilAnswered(Supplier<T> call) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (true) {
            try {
                return call.get();
            } catch (SdkException e) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the healed cluster did not answer within " + PATIENCE, e);
                }
                Thread.sleep(200);
            }
        }
    }
}
