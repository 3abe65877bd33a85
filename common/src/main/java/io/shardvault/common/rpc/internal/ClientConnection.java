package io.shardvault.common.rpc.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.common.rpc.RpcMessage;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One pooled connection to a peer, shared by many concurrent calls.
 *
 * <p>Thread-safe.
 */
public final class ClientConnection {
    private final Channel channel;
    private final PendingCalls pending;
    private final AtomicLong nextId = new AtomicLong();

    public ClientConnection(Channel channel, PendingCalls pending) {
        this.channel = channel;
        this.pending = pending;
    }

    public boolean isActive() {
        return channel.isActive();
    }

    /** Sends the request (taking ownership of it) and returns its answer. */
    public CompletableFuture<RpcMessage> send(RpcMessage request, Duration timeout) {
        long id = nextId.incrementAndGet();
        CompletableFuture<RpcMessage> call = new CompletableFuture<>();
        pending.add(id, call);
        ScheduledFuture<?> timer = channel.eventLoop().schedule(
                () -> pending.fail(id, new RpcException(ErrorCode.TIMEOUT,
                        "no answer from " + channel.remoteAddress() + " to op " + request.op() + " within " + timeout)),
                timeout.toNanos(), TimeUnit.NANOSECONDS);
        call.whenComplete((answer, failure) -> timer.cancel(false));
        Frame frame = new Frame(id, request.op(), 0, request.header(), request.payload());
        channel.writeAndFlush(frame).addListener((ChannelFutureListener) f -> {
            if (!f.isSuccess()) {
                pending.fail(id, new RpcException(ErrorCode.CONNECTION_CLOSED,
                        "could not send to " + channel.remoteAddress() + ": " + f.cause(), f.cause()));
            }
        });
        return call;
    }

    public PendingCalls pending() {
        return pending;
    }

    public void close() {
        channel.close();
    }
}
