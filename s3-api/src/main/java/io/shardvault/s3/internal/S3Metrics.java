package io.shardvault.s3.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

/**
 * The S3 endpoint's meters.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>meaning</th></tr>
 *   <tr><td>{@code shardvault.s3.requests}</td><td>timer</td><td>operation, status</td>
 *       <td>one request, from its head to the answer's head; {@code operation} as the router names it
 *       ({@code GetObject}, {@code PutObject}, ..., {@code Unknown} before routing), {@code status} the
 *       status class {@code 2xx}, {@code 3xx}, {@code 4xx} or {@code 5xx}</td></tr>
 *   <tr><td>{@code shardvault.s3.bytes.in}</td><td>counter (bytes)</td><td></td>
 *       <td>object bytes received (request bodies)</td></tr>
 *   <tr><td>{@code shardvault.s3.bytes.out}</td><td>counter (bytes)</td><td></td>
 *       <td>object bytes sent (streamed response bodies)</td></tr>
 *   <tr><td>{@code shardvault.s3.connections}</td><td>gauge</td><td></td><td>open client connections</td></tr>
 *   <tr><td>{@code shardvault.s3.payloads}</td><td>counter</td><td>type</td>
 *       <td>request bodies opened, by payload kind ({@code STREAMING-UNSIGNED-PAYLOAD-TRAILER},
 *       {@code UNSIGNED-PAYLOAD}, {@code SIGNED}, ...)</td></tr>
 * </table>
 * Thread-safe.
 */
public final class S3Metrics {
    private final MeterRegistry registry;
    private final Counter bytesIn;
    private final Counter bytesOut;
    private final ConcurrentMap<String, Timer> requestTimers = new ConcurrentHashMap<>();

    /** @param connections the server's open connections, which the {@code shardvault.s3.connections} gauge counts */
    public S3Metrics(MeterRegistry registry, OpenConnections connections) {
        this.registry = registry;
        // No base unit: the name says bytes, and Prometheus would append it again (_bytes_in_bytes_total).
        this.bytesIn = Counter.builder("shardvault.s3.bytes.in").description("object bytes received")
                .register(registry);
        this.bytesOut = Counter.builder("shardvault.s3.bytes.out").description("object bytes sent")
                .register(registry);
        Gauge.builder("shardvault.s3.connections", connections, OpenConnections::count)
                .description("open client connections").register(registry);
    }

    /** The {@code status} tag of an HTTP status: its class, {@code 2xx} to {@code 5xx}. */
    static String statusClass(int status) {
        return status >= 100 && status < 600 ? (status / 100) + "xx" : "other";
    }

    void recordRequest(String operation, int status, long nanos) {
        String statusClass = statusClass(status);
        requestTimers.computeIfAbsent(operation + ' ' + statusClass, k -> Timer.builder("shardvault.s3.requests")
                .description("S3 requests, head to answer head")
                .tags("operation", operation, "status", statusClass)
                .publishPercentiles(0.5, 0.99).register(registry)).record(nanos, TimeUnit.NANOSECONDS);
    }

    public void payload(String type) {
        Counter.builder("shardvault.s3.payloads").description("request bodies opened, by payload kind")
                .tag("type", type).register(registry).increment();
    }

    public void bytesIn(long n) {
        bytesIn.increment(n);
    }

    void bytesOut(long n) {
        bytesOut.increment(n);
    }
}
