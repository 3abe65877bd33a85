package io.shardvault.common.rpc;

import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardvaultException;

/**
 * Every failed RPC, local or remote, as one type carrying a stable {@link ErrorCode}: a remote
 * error frame, a timeout, a closed connection, an unreachable peer. Futures fail with it (wrapped
 * in a {@link java.util.concurrent.CompletionException} by {@code join()}).
 */
public final class RpcException extends ShardvaultException {
    private static final long serialVersionUID = 1L;

    public RpcException(ErrorCode code, String message) {
        super(code, code + ": " + message);
    }

    public RpcException(ErrorCode code, String message, Throwable cause) {
        super(code, code + ": " + message, cause);
    }

    /** The message without the code prefix, as sent in an error frame. */
    public String detail() {
        String message = getMessage();
        String prefix = code() + ": ";
        return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
    }

    /**
     * The RpcException behind a failure, unwrapping completion and execution wrappers; anything
     * else becomes {@link ErrorCode#INTERNAL}.
     */
    public static RpcException from(Throwable failure) {
        Throwable t = unwrap(failure);
        if (t instanceof RpcException rpc) {
            return rpc;
        }
        return new RpcException(ErrorCode.INTERNAL, String.valueOf(t), t);
    }
}
