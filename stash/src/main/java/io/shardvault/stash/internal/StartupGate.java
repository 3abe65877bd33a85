package io.shardvault.stash.internal;

import io.shardvault.common.ErrorCode;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.common.rpc.RpcHandler;
import io.shardvault.common.rpc.RpcMessage;
import java.util.concurrent.CompletableFuture;

/**
 * Answers {@code UNAVAILABLE} until the real handler is installed. The RPC server must be bound
 * before the stash knows its port, and the port names the stash's meters; this gate covers the
 * moment in between.
 *
 * <p>Thread-safe.
 */
public final class StartupGate implements RpcHandler {
    private volatile RpcHandler delegate;

    public void open(RpcHandler handler) {
        this.delegate = handler;
    }

    @Override
    public CompletableFuture<RpcMessage> handle(RpcMessage request) {
        RpcHandler handler = delegate;
        if (handler == null) {
            return CompletableFuture.failedFuture(new RpcException(ErrorCode.UNAVAILABLE, "stash is starting"));
        }
        return handler.handle(request);
    }
}
