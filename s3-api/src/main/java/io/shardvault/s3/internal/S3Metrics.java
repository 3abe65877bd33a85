package io.shardvault.s3.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The S3 endpoint's meters.
 *
 * <ul>
 *   <li>{@code s3.requests} (timer, tags {@code operation}, {@code status}): time from request head
 *       to answer head, with percentiles;</li>
 *   <li>{@code s3.bytes.in} / {@code s3.bytes.out} (counters): object bytes received and sent;</li>
 *   <li>{@code s3.connections} (gauge): open client connections;</li>
 *   <li>{@code s3.payloads} (counter, tag {@code type}): request bodies opened, by payload kind
 *       ({@code STREAMING-UNSIGNED-PAYLOAD-TRAILER}, {@code UNSIGNED-PAYLOAD}, {@code SIGNED}, ...).</li>
 * </ul>
 * Thread-safe.
 */
public final class S3Metrics {
    private final MeterRegistry registry;
    private final Counter bytesIn;
    private final Counter bytesOut;
    private final AtomicInteger connections = new AtomicInteger();

    public S3Metrics(MeterRegistry registry) {
        this.registry = registry;
        this.bytesIn = Counter.builder("s3.bytes.in").description("object bytes received").baseUnit("bytes")
                .register(registry);
        this.bytesOut = Counter.builder("s3.bytes.out").description("object bytes sent").baseUnit("bytes")
                .register(registry);
        registry.gauge("s3.connections", connections);
    }

    void recordRequest(String operation, int status, long nanos) {
        Timer.builder("s3.requests").description("S3 requests, head to answer head")
                .tags("operation", operation, "status", Integer.toString(status))
                .publishPercentiles(0.5, 0.99).register(registry).record(nanos, TimeUnit.NANOSECONDS);
    }

    public void payload(String type) {
        Counter.builder("s3.payloads").description("request bodies opened, by payload kind").tag("type", type)
                .register(registry).increment();
    }

    public void bytesIn(long n) {
        bytesIn.increment(n);
    }

    void bytesOut(long n) {
        bytesOut.increment(n);
    }

    void connectionOpened() {
        connections.incrementAndGet();
    }

    void connectionClosed() {
        connections.decrementAndGet();
    }
}
