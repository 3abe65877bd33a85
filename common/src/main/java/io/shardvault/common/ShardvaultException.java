package io.shardvault.common;

import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * The base of every shardvault failure that carries a stable {@link ErrorCode}: an RPC, the catalog,
 * a data path, a shard store, the S3 storage interface. A subclass exists only where a caller catches
 * it apart from the others; everywhere else the code says what happened, and a border that hands a
 * failure on keeps it ({@code new X(e.code(), e.getMessage(), e)}).
 *
 * <p>A checked {@link IOException}: every one of these is a storage or RPC failure the caller can act
 * on, and the methods that throw them already declare {@code IOException} (or fail a future with it).
 */
public class ShardvaultException extends IOException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    public ShardvaultException(ErrorCode code, String message) {
        super(message);
        this.code = Objects.requireNonNull(code, "code");
    }

    public ShardvaultException(ErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.code = Objects.requireNonNull(code, "code");
    }

    /** The stable code of this failure. */
    public ErrorCode code() {
        return code;
    }

    /**
     * The failure behind the {@link CompletionException}s and {@link ExecutionException}s a future
     * wrapped it in ({@code join()}, {@code get()}, a stage that threw); any other throwable as it is.
     */
    public static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
