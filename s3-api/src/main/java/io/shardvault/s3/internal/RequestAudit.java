package io.shardvault.s3.internal;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.shardvault.s3.Caller;
import io.shardvault.s3.S3Server;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * The audit record of one S3 request: filled in as its {@link Exchange} learns each fact, written
 * once, when the answer is complete (a streamed body's last byte sent, or the connection gone), as
 * one event of the {@link S3Server#AUDIT_LOGGER} logger whose SLF4J key/value pairs are the record's fields. The
 * coordinator's audit appender writes each event as one JSON line (Logback's {@code JsonEncoder});
 * with the logger off (its default), nothing is built.
 *
 * <table>
 *   <caption>Fields, in order; one left out is not known (a request refused before it was parsed
 *   has no bucket, an anonymous one no key id)</caption>
 *   <tr><td>{@code time}</td><td>when the request head arrived, ISO-8601 UTC with milliseconds</td></tr>
 *   <tr><td>{@code requestId}</td><td>the answer's {@code x-amz-request-id}</td></tr>
 *   <tr><td>{@code accessKeyId}</td><td>the key that signed; for a refused signature, the key it named</td></tr>
 *   <tr><td>{@code accountId}</td><td>the account that key belongs to (the owner of its buckets)</td></tr>
 *   <tr><td>{@code operation}</td><td>the route ({@code PutObject}, ...; {@code Unknown} before routing)</td></tr>
 *   <tr><td>{@code bucket}, {@code key}, {@code versionId}</td><td>what the request addressed; the version
 *       id answered, else the one asked for</td></tr>
 *   <tr><td>{@code status}, {@code errorCode}</td><td>the HTTP status sent (0: the connection was gone before
 *       any answer) and the S3 error code (also set when a streamed body failed after its 200 head)</td></tr>
 *   <tr><td>{@code bytesIn}, {@code bytesOut}</td><td>request body bytes received as sent (aws-chunked
 *       framing included) and response body bytes sent</td></tr>
 *   <tr><td>{@code durationMs}</td><td>from the request head to the answer's end</td></tr>
 *   <tr><td>{@code remoteAddress}, {@code userAgent}</td><td>the client's IP address and User-Agent</td></tr>
 * </table>
 *
 * <p>Never recorded: any other header (Authorization, a session token), the query string (a presigned
 * URL's signature and credential), a secret or signature from an error body.
 *
 * <p>Thread-safe: the caller is set from a worker thread, the rest on the connection's event loop.
 */
final class RequestAudit {
    private static final Logger LOG = LoggerFactory.getLogger(S3Server.AUDIT_LOGGER);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'",
            Locale.ROOT).withZone(ZoneOffset.UTC);

    private final Instant arrived = Instant.now();
    private final long startNanos;
    private final String requestId;
    private final String remoteAddress;
    private final String userAgent;
    private volatile Caller caller;
    private volatile String namedAccessKeyId;
    private volatile int status;
    private volatile String errorCode;
    private volatile String answeredVersionId;
    private boolean written;

    RequestAudit(String requestId, HttpRequest request, SocketAddress remote, long startNanos) {
        this.requestId = requestId;
        this.startNanos = startNanos;
        this.userAgent = request.headers().get(HttpHeaderNames.USER_AGENT);
        this.remoteAddress = remote instanceof InetSocketAddress inet && inet.getAddress() != null
                ? inet.getAddress().getHostAddress() : null;
    }

    /** The signature checked out: the request runs as {@code caller}. */
    void caller(Caller caller) {
        this.caller = caller;
    }

    /** The answer's head went out with {@code status}. */
    void answered(int status, HttpHeaders headers) {
        this.status = status;
        this.answeredVersionId = headers.get("x-amz-version-id");
    }

    /** The request failed with {@code error}: its code, and the key a refused signature named. */
    void failed(S3Error error) {
        errorCode = error.code();
        if (caller == null) {
            namedAccessKeyId = error.extra().get("AWSAccessKeyId");
        }
    }

    /**
     * Writes the record, the first time only: the answer is complete or abandoned.
     *
     * @param parsed the request as parsed, or null when it was refused before
     */
    synchronized void write(String operation, S3Request parsed, long bytesIn, long bytesOut) {
        if (written || !LOG.isInfoEnabled()) {
            return;
        }
        written = true;
        Caller c = caller;
        LoggingEventBuilder event = LOG.atInfo().addKeyValue("time", TIME.format(arrived))
                .addKeyValue("requestId", requestId);
        add(event, "accessKeyId", c != null ? c.accessKeyId() : namedAccessKeyId);
        add(event, "accountId", c != null ? c.owner() : null);
        add(event, "operation", operation);
        if (parsed != null) {
            add(event, "bucket", parsed.bucket());
            add(event, "key", parsed.key());
        }
        add(event, "versionId", answeredVersionId != null ? answeredVersionId
                : parsed != null ? parsed.param("versionId") : null);
        event.addKeyValue("status", status);
        add(event, "errorCode", errorCode);
        event.addKeyValue("bytesIn", bytesIn).addKeyValue("bytesOut", bytesOut)
                .addKeyValue("durationMs", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
        add(event, "remoteAddress", remoteAddress);
        add(event, "userAgent", userAgent);
        event.log("S3 request");
    }

    private static void add(LoggingEventBuilder event, String name, String value) {
        if (value != null && !value.isEmpty()) {
            event.addKeyValue(name, value);
        }
    }
}
