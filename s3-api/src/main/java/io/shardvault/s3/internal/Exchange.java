package io.shardvault.s3.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.shardvault.common.ShardvaultException;
import io.shardvault.s3.Caller;
import io.shardvault.s3.ObjectContent;
import io.shardvault.s3.internal.xml.XmlWriter;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request and its answer. Built on the event loop when the request head arrives; the
 * operation runs elsewhere and answers through {@link #respond}, {@link #respondError} or
 * {@link #respondStream}, each of which hops back to the event loop. Exactly one answer is sent
 * (later ones are ignored). After it, the connection is kept for the next request only if the
 * client allows it and the request body was consumed to its end; otherwise it is closed.
 */
public final class Exchange {
    private static final Logger LOG = LoggerFactory.getLogger(Exchange.class);
    private final ChannelHandlerContext ctx;
    private final HttpRequest request;
    private final String requestId;
    private final RequestBody body;
    /** Called once the answer is sent and the connection is kept: the connection's next request may start. */
    private final Consumer<Exchange> onKeptAlive;
    private final S3Metrics metrics;
    private final long startNanos = System.nanoTime();
    private final RequestAudit audit;
    private final AtomicBoolean answered = new AtomicBoolean();
    private volatile String operation = "Unknown";
    private volatile S3Request parsed;
    private boolean continueSent;
    private ObjectContent streaming;
    private boolean waitingForWritability;
    private boolean streamDone;
    private boolean keepAlive;
    private long bytesOut;

    Exchange(ChannelHandlerContext ctx, HttpRequest request, String requestId, Consumer<Exchange> onKeptAlive,
             S3Metrics metrics) {
        this.ctx = ctx;
        this.request = request;
        this.requestId = requestId;
        this.onKeptAlive = onKeptAlive;
        this.metrics = metrics;
        this.body = new RequestBody(ctx.channel(), this::sendContinue);
        this.audit = new RequestAudit(requestId, request, ctx.channel().remoteAddress(), startNanos);
    }

    public HttpRequest request() {
        return request;
    }

    public String requestId() {
        return requestId;
    }

    RequestBody body() {
        return body;
    }

    public RequestBody rawBody() {
        return body;
    }

    public void operation(String name) {
        this.operation = name;
    }

    public void parsed(S3Request request) {
        this.parsed = request;
    }

    /** The signature checked out: the request runs as {@code caller} (for the audit log). */
    public void caller(Caller caller) {
        audit.caller(caller);
    }

    private void sendContinue() {
        if (HttpUtil.is100ContinueExpected(request)) {
            ctx.channel().eventLoop().execute(() -> {
                if (!continueSent && !answered.get()) {
                    continueSent = true;
                    ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE,
                            Unpooled.EMPTY_BUFFER));
                }
            });
        }
    }

    /** A full answer with an in-memory body (XML or empty). */
    public void respond(HttpResponseStatus status, HttpHeaders headers, byte[] content) {
        if (!answered.compareAndSet(false, true)) {
            return;
        }
        send(status, headers, content);
    }

    private void send(HttpResponseStatus status, HttpHeaders headers, byte[] content) {
        ctx.channel().eventLoop().execute(() -> {
            boolean head = request.method().equals(HttpMethod.HEAD);
            ByteBuf buf = content == null || content.length == 0 || head ? Unpooled.EMPTY_BUFFER
                    : Unpooled.wrappedBuffer(content);
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, buf);
            if (headers != null) {
                response.headers().set(headers);
            }
            if (!response.headers().contains(HttpHeaderNames.CONTENT_LENGTH)) {
                response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, content == null ? 0 : content.length);
            }
            if (content != null && content.length > 0 && !response.headers().contains(HttpHeaderNames.CONTENT_TYPE)) {
                response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/xml");
            }
            decorate(response);
            headSent(response);
            bytesOut = buf.readableBytes();
            ctx.writeAndFlush(response).addListener(f -> finish());
        });
    }

    /** An S3 XML error answer. */
    public void respondError(S3Error error) {
        if (!answered.compareAndSet(false, true)) {
            return;
        }
        sendError(error);
    }

    private void sendError(S3Error error) {
        audit.failed(error);
        XmlWriter xml = XmlWriter.plainDocument("Error").element("Code", error.code())
                .element("Message", error.getMessage());
        S3Request p = parsed;
        xml.element("Resource", p != null ? p.resource() : pathOf(request.uri()));
        if (p != null && error.code().equals("NoSuchKey")) {
            xml.element("Key", p.key());
        } else if (p != null && error.code().equals("NoSuchBucket")) {
            xml.element("BucketName", p.bucket());
        } else if (p != null && error.code().equals("NoSuchUpload")) {
            xml.element("UploadId", p.param("uploadId"));
        }
        error.extra().forEach(xml::element);
        xml.element("RequestId", requestId).element("HostId", requestId);
        HttpHeaders headers = new io.netty.handler.codec.http.DefaultHttpHeaders();
        if (error.status().code() == 304) {
            send(error.status(), headers, null);
            return;
        }
        headers.set(HttpHeaderNames.CONTENT_TYPE, "application/xml");
        send(error.status(), headers, xml.toBytes());
    }

    private static String pathOf(String uri) {
        int q = uri.indexOf('?');
        return q < 0 ? uri : uri.substring(0, q);
    }

    /**
     * A streamed answer: the head with the first bytes, then the rest as fast as the socket takes it. The
     * head waits for the first read, so a read that fails before any byte is out (too few shards to decode,
     * a store that is down) is answered with its error status, not with a connection closed unanswered.
     */
    public void respondStream(HttpResponseStatus status, HttpHeaders headers, ObjectContent content) {
        if (!answered.compareAndSet(false, true)) {
            content.close();
            return;
        }
        content.read().whenComplete((first, err) -> ctx.channel().eventLoop().execute(
                () -> startStream(status, headers, content, first, err)));
    }

    private void startStream(HttpResponseStatus status, HttpHeaders headers, ObjectContent content, ByteBuf first,
                             Throwable err) {
        if (err != null) {
            content.close();
            S3Error error = ErrorMapper.toS3Error(err);
            logStreamFailure(error, err, "before the first byte");
            sendError(error);
            return;
        }
        if (!ctx.channel().isActive()) {
            if (first != null) {
                first.release();
            }
            content.close();
            ended();
            return;
        }
        HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, status);
        response.headers().set(headers);
        decorate(response);
        headSent(response);
        streaming = content;
        ctx.write(response);
        deliver(content, first, null);
    }

    private void pump() {
        ObjectContent content = streaming;
        if (content == null || streamDone) {
            return;
        }
        content.read().whenComplete((buf, err) -> ctx.channel().eventLoop().execute(() -> deliver(content, buf, err)));
    }

    /** On the event loop: one read of the content ended; {@code buf} null means the content's end. */
    private void deliver(ObjectContent content, ByteBuf buf, Throwable err) {
        if (streamDone) {
            if (buf != null) {
                buf.release();
            }
            return;
        }
        if (err != null) {
            streamDone = true;
            content.close();
            S3Error error = ErrorMapper.toS3Error(err);
            logStreamFailure(error, err, "after " + bytesOut + " bytes");
            audit.failed(error);
            ended();
            // The head is out: a short body and a closed connection is all the client can be told.
            ctx.flush();
            ctx.close();
            return;
        }
        if (buf == null) {
            streamDone = true;
            content.close();
            metrics.bytesOut(bytesOut);
            ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener(f -> finish());
            return;
        }
        bytesOut += buf.readableBytes();
        ctx.writeAndFlush(new DefaultHttpContent(buf)).addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
        if (ctx.channel().isWritable()) {
            pump();
        } else {
            waitingForWritability = true;
        }
    }

    // The log context is a try-with-resources scope whose variable is never read.
    @SuppressWarnings("try")
    private void logStreamFailure(S3Error error, Throwable err, String when) {
        if (error.status().code() < 500) {
            return;
        }
        try (RequestLogContext context = RequestLogContext.open(requestId, parsed)) {
            LOG.warn("read failed {} operation={} status={}: {}", when, operation, error.status().code(),
                    err.toString(), ShardvaultException.unwrap(err));
        }
    }

    /** On the event loop: the channel's writability changed. */
    void writabilityChanged() {
        if (waitingForWritability && ctx.channel().isWritable()) {
            waitingForWritability = false;
            pump();
        }
    }

    /** On the event loop: the connection is gone. */
    void connectionClosed() {
        body.fail(S3Error.incompleteBody("The connection closed before the request body ended."));
        if (streaming != null && !streamDone) {
            streamDone = true;
            streaming.close();
            ended();
        }
    }

    /**
     * On the event loop: the answer's head is going out. The one place a request's outcome is known:
     * its latency is measured to here (head to head), its audit record takes the status and version id.
     */
    private void headSent(HttpResponse response) {
        metrics.recordRequest(operation, response.status().code(), System.nanoTime() - startNanos);
        audit.answered(response.status().code(), response.headers());
    }

    /** On the event loop: the answer is complete, or abandoned (its connection gone mid-body). */
    private void ended() {
        audit.write(operation, parsed, body.bytesReceived(), bytesOut);
    }

    private void decorate(HttpResponse response) {
        HttpHeaders h = response.headers();
        h.set("x-amz-request-id", requestId);
        h.set("x-amz-id-2", requestId);
        h.set(HttpHeaderNames.SERVER, "shardvault");
        h.set(HttpHeaderNames.DATE, HttpDates.format(Instant.now()));
        keepAlive = HttpUtil.isKeepAlive(request) && body.ended();
        if (!keepAlive) {
            h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        } else if (request.protocolVersion().equals(HttpVersion.HTTP_1_0)) {
            h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
    }

    private void finish() {
        ended();
        body.close();
        if (keepAlive && ctx.channel().isActive()) {
            onKeptAlive.accept(this);
        } else {
            ctx.close();
        }
    }
}
