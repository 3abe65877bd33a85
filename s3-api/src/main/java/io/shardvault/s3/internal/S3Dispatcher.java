package io.shardvault.s3.internal;

import io.shardvault.common.ShardvaultException;
import io.shardvault.s3.Caller;
import io.shardvault.s3.ObjectStore;
import io.shardvault.s3.S3ServerConfig;
import io.shardvault.s3.internal.auth.SigV4Verifier;
import io.shardvault.s3.internal.ops.Op;
import io.shardvault.s3.internal.ops.Router;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a request off the event loop: parse the addressing, route by method and query,
 * authenticate (an unsigned request runs as {@link Caller#ANONYMOUS}, only where its route lets it; a
 * restricted key only within its {@link io.shardvault.s3.AccessScope}),
 * then run the operation; any failure becomes an S3 error answer. A full worker queue
 * is answered {@code SlowDown} at once. Thread-safe.
 */
final class S3Dispatcher {
    private static final Logger LOG = LoggerFactory.getLogger(S3Dispatcher.class);

    private final S3ServerConfig config;
    private final ObjectStore store;
    private final SigV4Verifier verifier;
    private final RequestParser parser;
    private final Executor workers;
    private final S3Metrics metrics;
    private final Clock clock;

    S3Dispatcher(S3ServerConfig config, ObjectStore store, SigV4Verifier verifier, RequestParser parser,
                 Executor workers, S3Metrics metrics, Clock clock) {
        this.config = config;
        this.store = store;
        this.verifier = verifier;
        this.parser = parser;
        this.workers = workers;
        this.metrics = metrics;
        this.clock = clock;
    }

    void dispatch(Exchange ex) {
        try {
            workers.execute(() -> process(ex));
        } catch (RejectedExecutionException e) {
            ex.rawBody().discard();
            ex.respondError(ErrorMapper.toS3Error(e));
        }
    }

    // The log contexts are try-with-resources scopes whose variables are never read.
    @SuppressWarnings("try")
    private void process(Exchange ex) {
        CompletableFuture<Void> done;
        S3Request parsed = null;
        String operation = "Unknown";
        try (RequestLogContext ignored = RequestLogContext.open(ex.requestId(), null)) {
            S3Request req = parser.parse(ex.request(), ex.requestId());
            parsed = req;
            ex.parsed(req);
            Router.Route route = Router.route(req);
            ex.operation(route.name());
            operation = route.name();
            done = verifier.verify(req).thenComposeAsync(signing -> {
                // The operation and the store call it starts log with the request's context.
                try (RequestLogContext context = RequestLogContext.open(ex.requestId(), req)) {
                    Caller caller = signing.anonymous() ? Caller.ANONYMOUS
                            : new Caller(signing.credential().accessKeyId(), signing.credential().owner(),
                                    signing.credential().scope());
                    ex.caller(caller);
                    Op op = new Op(ex, req, signing, caller, store, config, clock, workers, metrics);
                    return route.handlerFor(caller).handle(op);
                }
            }, workers);
        } catch (RuntimeException e) {
            done = CompletableFuture.failedFuture(e);
        }
        S3Request logged = parsed;
        String loggedOperation = operation;
        done.whenComplete((v, err) -> {
            if (err != null) {
                S3Error error = ErrorMapper.toS3Error(err);
                // Client errors (4xx) are the client's business: answered, not logged. Server errors
                // log with their stack unless they are typed answers (see the shipped logback.xml).
                if (error.status().code() >= 500 && error.status().code() != 501) {
                    try (RequestLogContext context = RequestLogContext.open(ex.requestId(), logged)) {
                        LOG.warn("request failed operation={} status={}: {}", loggedOperation, error.status().code(),
                                err.toString(), ShardvaultException.unwrap(err));
                    }
                }
                ex.rawBody().discard();
                ex.respondError(error);
            }
        });
    }
}
