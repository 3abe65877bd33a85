package io.shardvault.it.netns;

import static io.shardvault.common.erasure.TestData.sha256;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import javax.net.ssl.TrustManagerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;

/**
 * The S3 client of {@link NetnsClusterIT}, a JVM of its own inside the client host's namespace: the AWS SDK v2
 * over HTTPS trusting only the cluster CA, its own retries off. Each request goes to one coordinator and, when
 * it fails, to the next (at most {@link #ATTEMPTS} tries over the coordinators). An attempt that has not ended
 * {@link #ATTEMPT_DEADLINE} after it began is left behind, its thread's stack printed, and the next one begins.
 *
 * <p>{@code load}: writes small objects (stashed) and, every {@code largeEvery}-th, one of {@code largeBytes}
 * (several stripes), and reads back a written one between writes, until the stop file appears or
 * {@code maxSeconds} pass; each acknowledged PUT is appended to the ack file as {@code key sha256}. {@code verify}:
 * reads every key of the ack file through every coordinator and compares its SHA-256. Either prints
 * {@code requests N retried R failed F} at its end and exits 1 if a request failed on every attempt (or, in verify,
 * read back other bytes), 0 otherwise. Arguments are {@code name=value} pairs.
 */
public final class NetnsLoadClient {
    static final int ATTEMPTS = 6;
    static final String BUCKET = "netns";
    private static final Duration ATTEMPT_PAUSE = Duration.ofMillis(500);
    private static final Duration API_CALL_TIMEOUT = Duration.ofSeconds(20);
    /**
     * The SDK's own call timeout with a margin. It should never fire: it is there because a load client once
     * acknowledged nothing for the minute after a coordinator's link went down and printed no failed attempt,
     * so one call outlived that timeout; the stack it prints will say where such a call waits.
     */
    private static final Duration ATTEMPT_DEADLINE = API_CALL_TIMEOUT.plusSeconds(5);

    /** Runs each attempt, so that one which does not end can be left behind (its threads never keep the JVM up). */
    private final ExecutorService attempts = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "attempt");
        t.setDaemon(true);
        return t;
    });

    private final List<S3Client> clients = new ArrayList<>();
    private final List<String> endpoints;
    private int next;
    private long requests;
    private long retried;
    private long failed;

    private NetnsLoadClient(List<String> endpoints, Path ca, String keyId, String secret) throws Exception {
        this.endpoints = endpoints;
        TrustManagerFactory trust = trustOnly(ca);
        for (String e : endpoints) {
            clients.add(S3Client.builder().endpointOverride(URI.create(e)).region(Region.US_EAST_1)
                    .forcePathStyle(true)
                    .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(keyId, secret)))
                    .httpClient(UrlConnectionHttpClient.builder().connectionTimeout(Duration.ofSeconds(2))
                            .socketTimeout(Duration.ofSeconds(15))
                            .tlsTrustManagersProvider(trust::getTrustManagers).build())
                    .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry())
                            .apiCallTimeout(API_CALL_TIMEOUT))
                    .build());
        }
    }

    public static void main(String[] argv) throws Exception {
        Map<String, String> args = new LinkedHashMap<>();
        for (String a : argv) {
            int eq = a.indexOf('=');
            args.put(a.substring(0, eq), a.substring(eq + 1));
        }
        // The key file holds the access key id and its secret, one a line: no secret on a command line.
        List<String> key = Files.readAllLines(Path.of(args.get("keyFile")), StandardCharsets.UTF_8);
        NetnsLoadClient client = new NetnsLoadClient(List.of(args.get("endpoints").split(",")),
                Path.of(args.get("ca")), key.get(0), key.get(1));
        Path ack = Path.of(args.get("ack"));
        boolean ok = switch (args.get("mode")) {
            case "load" -> client.load(ack, Path.of(args.get("stop")), Integer.parseInt(args.get("largeBytes")),
                    Integer.parseInt(args.get("largeEvery")), Long.parseLong(args.get("maxSeconds")));
            case "verify" -> client.verify(ack);
            default -> throw new IllegalArgumentException("mode load or verify");
        };
        System.out.printf("requests %d retried %d failed %d%n", client.requests, client.retried, client.failed);
        System.out.flush();
        System.exit(ok && client.failed == 0 ? 0 : 1);
    }

    private boolean load(Path ack, Path stop, int largeBytes, int largeEvery, long maxSeconds) throws Exception {
        Random random = new Random(ProcessHandle.current().pid());
        long deadline = System.nanoTime() + Duration.ofSeconds(maxSeconds).toNanos();
        tryEverywhere("create bucket", s3 -> {
            try {
                s3.createBucket(b -> b.bucket(BUCKET));
            } catch (BucketAlreadyOwnedByYouException e) {
                // A retry of a create that an earlier attempt made.
            }
            return Boolean.TRUE;
        });
        List<String[]> written = new ArrayList<>();
        try (BufferedWriter out = Files.newBufferedWriter(ack, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND)) {
            for (int i = 0; !Files.exists(stop) && System.nanoTime() < deadline; i++) {
                byte[] body = new byte[i % largeEvery == largeEvery - 1 ? largeBytes : 4096 + random.nextInt(60_000)];
                random.nextBytes(body);
                String k = "o-" + ProcessHandle.current().pid() + "-" + i;
                if (tryEverywhere("PUT " + k, s3 -> s3.putObject(p -> p.bucket(BUCKET).key(k),
                        RequestBody.fromBytes(body))) != null) {
                    String sum = sha256(body);
                    out.write(k + " " + sum + "\n");
                    out.flush();
                    written.add(new String[] {k, sum});
                }
                if (!written.isEmpty()) {
                    String[] old = written.get(random.nextInt(written.size()));
                    String got = tryEverywhere("GET " + old[0], s3 -> sha256(s3.getObjectAsBytes(
                            g -> g.bucket(BUCKET).key(old[0])).asByteArray()));
                    if (got != null && !got.equals(old[1])) {
                        System.out.println("GET " + old[0] + " read other bytes: " + got + " for " + old[1]);
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /** Every acknowledged object through every coordinator, the coordinators read in parallel (one thread each). */
    private boolean verify(Path ack) throws Exception {
        List<String[]> entries = Files.readAllLines(ack, StandardCharsets.UTF_8).stream().map(l -> l.split(" "))
                .toList();
        ExecutorService readers = Executors.newFixedThreadPool(clients.size());
        try {
            List<Future<Long>> failures = new ArrayList<>();
            for (int c = 0; c < clients.size(); c++) {
                int coordinator = c;
                failures.add(readers.submit(() -> verifyThrough(coordinator, entries)));
            }
            long wrong = 0;
            for (Future<Long> f : failures) {
                wrong += f.get();
            }
            requests += (long) entries.size() * clients.size();
            System.out.println("verified " + entries.size() + " objects through " + clients.size() + " coordinators");
            return wrong == 0;
        } finally {
            readers.shutdownNow();
        }
    }

    /** Reads every entry through coordinator {@code c}; returns how many read other bytes or failed. */
    private long verifyThrough(int c, List<String[]> entries) throws IOException {
        S3Client s3 = clients.get(c);
        long wrong = 0;
        for (String[] entry : entries) {
            try (InputStream in = s3.getObject(g -> g.bucket(BUCKET).key(entry[0]))) {
                if (!sha256(in.readAllBytes()).equals(entry[1])) {
                    System.out.println(endpoints.get(c) + ": " + entry[0] + " read other bytes");
                    wrong++;
                }
            } catch (RuntimeException e) {
                System.out.println(endpoints.get(c) + ": GET " + entry[0] + " failed: " + e);
                wrong++;
            }
        }
        return wrong;
    }

    /**
     * {@code request} on the next coordinator, then on the following ones while it fails, {@link #ATTEMPTS} tries
     * in all; returns its result (never null), or null (counted failed, and printed) when every try failed.
     */
    private <T> T tryEverywhere(String what, Function<S3Client, T> request) throws InterruptedException {
        requests++;
        RuntimeException last = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int c = next++ % clients.size();
            try {
                T result = withDeadline(request, clients.get(c));
                if (attempt > 0) {
                    retried++;
                    System.out.println(what + " succeeded on " + endpoints.get(c) + " at attempt " + (attempt + 1));
                }
                return result;
            } catch (RuntimeException e) {
                last = e;
                System.out.println(what + " failed on " + endpoints.get(c) + ": " + e);
                Thread.sleep(ATTEMPT_PAUSE.toMillis());
            }
        }
        failed++;
        System.out.println(what + " failed on every attempt; last " + last);
        return null;
    }

    /** {@code request} on {@code s3}, or an exception when it has not ended within {@link #ATTEMPT_DEADLINE}. */
    private <T> T withDeadline(Function<S3Client, T> request, S3Client s3) throws InterruptedException {
        AtomicReference<Thread> runner = new AtomicReference<>();
        Future<T> attempt = attempts.submit(() -> {
            runner.set(Thread.currentThread());
            return request.apply(s3);
        });
        try {
            return attempt.get(ATTEMPT_DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error; // not a failed attempt to retry elsewhere: the client itself is broken
            }
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            StringBuilder stack = new StringBuilder();
            Thread t = runner.get();
            for (StackTraceElement frame : t == null ? new StackTraceElement[0] : t.getStackTrace()) {
                stack.append("\n\tat ").append(frame);
            }
            attempt.cancel(true);
            throw new IllegalStateException("no end within " + ATTEMPT_DEADLINE + " (the SDK's call timeout is "
                    + API_CALL_TIMEOUT + "), left behind; its thread was at:" + stack);
        }
    }

    private static TrustManagerFactory trustOnly(Path caPem) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        try (InputStream in = Files.newInputStream(caPem)) {
            store.setCertificateEntry("cluster-ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(store);
        return tmf;
    }
}
