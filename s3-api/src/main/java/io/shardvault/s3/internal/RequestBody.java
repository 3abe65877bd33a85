package io.shardvault.s3.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.LastHttpContent;
import io.shardvault.s3.internal.body.RawBody;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;

/**
 * The raw body of one request, handed over with demand: the connection has auto-read off, and a
 * {@link #next()} with nothing buffered asks the channel for one more read. So at most one socket
 * read's worth of bytes waits here. The first demand sends {@code 100 Continue} when the client
 * expects it: by then the request is authenticated and routed. Thread-safe: offered on the event
 * loop, pulled from any thread.
 */
public final class RequestBody implements RawBody {
    private final Channel channel;
    private final Runnable onFirstDemand;
    private final ArrayDeque<ByteBuf> queue = new ArrayDeque<>();
    private CompletableFuture<ByteBuf> pending;
    private boolean demanded;
    private boolean ended;
    private boolean discarded;
    private Throwable failure;
    private long bytesReceived;

    RequestBody(Channel channel, Runnable onFirstDemand) {
        this.channel = channel;
        this.onFirstDemand = onFirstDemand;
    }

    @Override
    public CompletableFuture<ByteBuf> next() {
        boolean first;
        CompletableFuture<ByteBuf> result;
        synchronized (this) {
            first = !demanded;
            demanded = true;
            if (!queue.isEmpty()) {
                return CompletableFuture.completedFuture(queue.poll());
            }
            if (failure != null) {
                return CompletableFuture.failedFuture(failure);
            }
            if (ended || discarded) {
                return CompletableFuture.completedFuture(null);
            }
            pending = new CompletableFuture<>();
            result = pending;
        }
        if (first) {
            onFirstDemand.run();
        }
        requestRead();
        return result;
    }

    /** Called on the event loop with each piece of the body; takes ownership. */
    void offer(HttpContent content) {
        CompletableFuture<ByteBuf> toComplete = null;
        ByteBuf give = null;
        boolean completeEnd = false;
        boolean needRead = false;
        if (content.decoderResult().isFailure()) {
            content.release();
            fail(S3Error.incompleteBody("The request body terminated unexpectedly."));
            return;
        }
        ByteBuf data = content.content();
        boolean last = content instanceof LastHttpContent;
        synchronized (this) {
            bytesReceived += data.readableBytes();
            if (discarded || failure != null) {
                data.release();
            } else if (data.isReadable()) {
                if (pending != null) {
                    toComplete = pending;
                    pending = null;
                    give = data;
                } else {
                    queue.add(data);
                }
            } else {
                data.release();
            }
            if (last) {
                ended = true;
                if (pending != null && queue.isEmpty()) {
                    toComplete = pending;
                    pending = null;
                    completeEnd = true;
                }
            } else if (pending != null) {
                needRead = true;
            }
        }
        if (toComplete != null) {
            toComplete.complete(completeEnd ? null : give);
        }
        if (needRead) {
            requestRead();
        }
    }

    /**
     * Asks the channel for one more read, on its event loop, unless its input is already shut down:
     * epoll fails a read request on a half-closed socket (epoll_ctl ENOENT) and would close the
     * connection before the error answer is out.
     */
    private void requestRead() {
        channel.eventLoop().execute(() -> {
            if (!(channel instanceof DuplexChannel duplex && duplex.isInputShutdown())) {
                channel.read();
            }
        });
    }

    /** The connection closed or broke before the body ended. */
    void fail(Throwable cause) {
        CompletableFuture<ByteBuf> toFail;
        synchronized (this) {
            if (ended || failure != null) {
                return;
            }
            failure = cause;
            toFail = pending;
            pending = null;
            releaseQueued();
        }
        if (toFail != null) {
            toFail.completeExceptionally(cause);
        }
    }

    @Override
    public void discard() {
        synchronized (this) {
            discarded = true;
            releaseQueued();
        }
    }

    /** Whether the whole body has arrived (so the connection is positioned at the next request). */
    synchronized boolean ended() {
        return ended;
    }

    /** The body bytes that arrived, as sent (aws-chunked framing included), whether read or discarded. */
    synchronized long bytesReceived() {
        return bytesReceived;
    }

    /** Whether anyone asked for body bytes. */
    synchronized boolean demanded() {
        return demanded;
    }

    /** Frees whatever is left; the exchange is over. */
    void close() {
        CompletableFuture<ByteBuf> toFail;
        synchronized (this) {
            discarded = true;
            releaseQueued();
            toFail = pending;
            pending = null;
        }
        if (toFail != null) {
            toFail.completeExceptionally(S3Error.incompleteBody("the request is over"));
        }
    }

    private void releaseQueued() {
        for (ByteBuf b; (b = queue.poll()) != null; ) {
            b.release();
        }
    }
}
