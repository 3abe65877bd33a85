package io.shardvault.coordinator.catalog.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardvaultException;
import io.shardvault.coordinator.catalog.CatalogException;
import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.exceptions.LeaderNotReadyException;
import org.apache.ratis.protocol.exceptions.LeaderSteppingDownException;
import org.apache.ratis.protocol.exceptions.NotLeaderException;
import org.apache.ratis.protocol.exceptions.ReadIndexException;
import org.apache.ratis.protocol.exceptions.TimeoutIOException;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;

/**
 * Sends the catalog's {@link Call}s over Ratis for {@link RatisCatalog}: writes go through
 * {@code async().send}, reads through {@code async().sendReadOnly}, which the group serves
 * linearizably (ReadIndex). Replies are decoded by the call's own reader; failures become
 * {@link CatalogException}s with a stable code.
 *
 * <p>When this JVM hosts a catalog peer and that peer is the group's ready leader, requests skip
 * the Raft client and its gRPC loopback hop and go straight to the local server
 * ({@code submitClientRequestAsync}), which runs the same leader code a gRPC request would reach.
 * A local answer of "not the leader" (not leader, leader not ready, stepping down) sends the same
 * message through the Raft client instead, which finds the leader. The counter
 * {@code shardvault.catalog.submissions} (tag {@code path}: {@code local}, {@code remote}, or
 * {@code fallback} for a local attempt resent through the client) shows which way calls went.
 *
 * <p>Every write carries a 16-byte request id (wall millis at first send, then 64 random bits),
 * kept across the Ratis client's own retries and across a local-to-client fallback (the same
 * message is resent), so the state machine applies it at most once.
 *
 * <p>Thread-safe. Closing closes the Raft client; pending futures fail.
 */
final class RatisCalls implements AutoCloseable {
    /** How often a read retries while the group has no leader. */
    private static final Duration ELECTION_POLL = Duration.ofMillis(50);

    /** The Raft client identity of this catalog's local calls, with their call ids (unique per call). */
    private final ClientId localClientId = ClientId.randomId();
    private final AtomicLong localCallIds = new AtomicLong();

    private final RaftClient client;
    private final Optional<LocalPeer> local;
    private final Duration timeout;
    private final MeterRegistry registry;
    private final Counter localCalls;
    private final Counter remoteCalls;
    private final Counter fallbackCalls;

    /**
     * This JVM's catalog peer: its Raft division, and the executor that completes the callers'
     * futures of local calls (their continuations must not run on the peer's apply or query threads).
     */
    record LocalPeer(RaftServer.Division division, Executor replies) {
        LocalPeer {
            Objects.requireNonNull(division, "division");
            Objects.requireNonNull(replies, "replies");
        }
    }

    RatisCalls(RaftClient client, Optional<LocalPeer> local, Duration timeout, MeterRegistry registry) {
        this.client = client;
        this.local = local;
        this.timeout = timeout;
        this.registry = registry;
        this.localCalls = submissions(registry, "local");
        this.remoteCalls = submissions(registry, "remote");
        this.fallbackCalls = submissions(registry, "fallback");
    }

    private static Counter submissions(MeterRegistry registry, String path) {
        // shardvault.catalog.submissions: catalog calls by the way they reached the leader: local (to
        // this JVM's leading peer, no RPC), remote (through the Raft client), fallback (a local
        // attempt answered "not the leader", then resent through the Raft client).
        return Counter.builder("shardvault.catalog.submissions").tag("path", path)
                .description("Catalog calls by path: in-process to the local leader, or through the Raft client")
                .register(registry);
    }

    private static Message message(Wire.Writer w) {
        return Message.valueOf(UnsafeByteOperations.unsafeWrap(w.toByteArray()));
    }

    /** Sends one call: a write through the Raft log, a read as a linearizable query. */
    <T> CompletableFuture<T> call(Call<T> call) {
        return call.op().write ? write(call.op(), call.fields(), call.reply())
                : read(call.op(), call.fields(), call.reply());
    }

    private <T> CompletableFuture<T> write(Op op, Consumer<Wire.Writer> body, Function<Wire.Reader, T> decode) {
        Wire.Writer w = new Wire.Writer(128).u8(op.code).i64(System.currentTimeMillis())
                .i64(ThreadLocalRandom.current().nextLong() | 1L);
        body.accept(w);
        Message message = message(w);
        return finish(op, true, submit(message, RaftClientRequest.writeRequestType(),
                () -> client.async().send(message)), decode);
    }

    private <T> CompletableFuture<T> read(Op op, Consumer<Wire.Writer> body, Function<Wire.Reader, T> decode) {
        Wire.Writer w = new Wire.Writer(64).u8(op.code);
        body.accept(w);
        Message message = message(w);
        long deadlineNanos = System.nanoTime() + timeout.toNanos();
        return finish(op, false, submit(message, RaftClientRequest.readRequestType(),
                () -> sendReadOnlyOnceLed(message, deadlineNanos)), decode);
    }

    /**
     * Sends one request: to this JVM's peer when it is the ready leader, else (or when it answers
     * that it does not lead after all) through the Raft client, {@code remote}.
     *
     * <p>A local write answered "not the leader" may still have been appended (a leader that steps
     * down answers its pending entries so, and one of them may yet commit under the next leader);
     * resending it is safe only because the resent message is the same bytes, with the same request
     * id, which the state machine applies at most once. Any other local failure is the answer.
     */
    private CompletableFuture<RaftClientReply> submit(Message message, RaftClientRequest.Type type,
                                                      Supplier<CompletableFuture<RaftClientReply>> remote) {
        LocalPeer peer = local.filter(RatisCalls::leads).orElse(null);
        if (peer == null) {
            remoteCalls.increment();
            return remote.get();
        }
        localCalls.increment();
        RaftServer.Division division = peer.division();
        RaftClientRequest request = RaftClientRequest.newBuilder().setClientId(localClientId)
                .setServerId(division.getId()).setGroupId(division.getMemberId().getGroupId())
                .setCallId(localCallIds.incrementAndGet()).setMessage(message).setType(type).build();
        CompletableFuture<RaftClientReply> sent;
        try {
            sent = division.getRaftServer().submitClientRequestAsync(request);
        } catch (IOException | RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        return sent.handleAsync((reply, failure) -> {
            Throwable problem = failure != null ? failure : reply.isSuccess() ? null : reply.getException();
            if (isNotLeader(problem)) {
                fallbackCalls.increment();
                return remote.get();
            }
            return failure != null ? CompletableFuture.<RaftClientReply>failedFuture(failure)
                    : CompletableFuture.completedFuture(reply);
        }, peer.replies()).thenCompose(next -> next);
    }

    private static boolean leads(LocalPeer peer) {
        DivisionInfo info = peer.division().getInfo();
        return info.isLeader() && info.isLeaderReady();
    }

    /** The local server says it does not lead (or not yet, or not for long): worth sending through the client. */
    private static boolean isNotLeader(Throwable problem) {
        for (Throwable t = problem; t != null; t = t.getCause()) {
            if (t instanceof NotLeaderException || t instanceof LeaderNotReadyException
                    || t instanceof LeaderSteppingDownException) {
                return true;
            }
        }
        return false;
    }

    /**
     * A linearizable read needs a leader's ReadIndex. While the group elects one (a leader just
     * died), peers answer "leader is unknown", which the Ratis client does not retry: wait for the
     * election here, within the call's own timeout, rather than fail a read an election away from
     * succeeding.
     */
    private CompletableFuture<RaftClientReply> sendReadOnlyOnceLed(Message message, long deadlineNanos) {
        return client.async().sendReadOnly(message).handle((reply, failure) -> {
            Throwable problem = failure != null ? failure : reply.isSuccess() ? null : reply.getException();
            if (isLeaderless(problem) && System.nanoTime() + ELECTION_POLL.toNanos() < deadlineNanos) {
                return CompletableFuture.runAsync(() -> { },
                                CompletableFuture.delayedExecutor(ELECTION_POLL.toMillis(), TimeUnit.MILLISECONDS))
                        .thenCompose(ignored -> sendReadOnlyOnceLed(message, deadlineNanos));
            }
            return failure != null ? CompletableFuture.<RaftClientReply>failedFuture(failure)
                    : CompletableFuture.completedFuture(reply);
        }).thenCompose(next -> next);
    }

    private static boolean isLeaderless(Throwable problem) {
        for (Throwable t = problem; t != null; t = t.getCause()) {
            if (t instanceof ReadIndexException || t instanceof LeaderNotReadyException) {
                return true;
            }
        }
        return false;
    }

    /** A diagnostic: (applied index, checksum over every table) as of a given peer, read stale from it. */
    CompletableFuture<long[]> stateChecksum(String peerId, long minIndex) {
        Wire.Writer w = new Wire.Writer(1).u8(Op.STATE_CHECKSUM.code);
        return finish(Op.STATE_CHECKSUM, false,
                client.async().sendStaleRead(message(w), minIndex, RaftPeerId.valueOf(peerId)),
                r -> new long[] {r.i64(), r.i64()});
    }

    private <T> CompletableFuture<T> finish(Op op, boolean commit, CompletableFuture<RaftClientReply> sent,
                                            Function<Wire.Reader, T> decode) {
        Timer.Sample sample = Timer.start(registry);
        CompletableFuture<T> out = new CompletableFuture<>();
        sent.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).whenComplete((reply, failure) -> {
            String outcome = "ok";
            try {
                if (failure != null) {
                    throw translate(failure);
                }
                if (!reply.isSuccess()) {
                    throw translate(reply.getException() != null ? reply.getException()
                            : new IOException("unsuccessful reply"));
                }
                byte[] bytes = reply.getMessage().getContent().toByteArray();
                Wire.Reader r = new Wire.Reader(bytes);
                if (r.u8() != 0) {
                    throw new CatalogException(ErrorCode.fromWire(r.u16()), r.str());
                }
                T value = decode.apply(r);
                r.expectEnd();
                out.complete(value);
            } catch (CatalogException e) {
                outcome = e.code().name();
                out.completeExceptionally(e);
            } catch (RuntimeException e) {
                outcome = "INTERNAL";
                out.completeExceptionally(new CatalogException(ErrorCode.INTERNAL, "bad catalog reply to " + op, e));
            } finally {
                // shardvault.catalog.commit: a write, from send to applied by the leader (a majority
                // has it in its synced log); shardvault.catalog.read: a linearizable read (ReadIndex),
                // election waits included. Tags: op, and outcome (ok or the error code).
                sample.stop(Timer.builder(commit ? "shardvault.catalog.commit" : "shardvault.catalog.read")
                        .description(commit ? "catalog writes, send to applied" : "catalog linearizable reads")
                        .tag("op", op.name()).tag("outcome", outcome.toLowerCase(java.util.Locale.ROOT))
                        .register(registry));
            }
        });
        return out;
    }

    private static CatalogException translate(Throwable t) {
        Throwable c = ShardvaultException.unwrap(t);
        if (c instanceof CatalogException ce) {
            return ce;
        }
        if (c instanceof TimeoutException || c instanceof TimeoutIOException) {
            return new CatalogException(ErrorCode.TIMEOUT, "catalog call timed out", c);
        }
        if (c instanceof NotLeaderException nle) {
            return new CatalogException(ErrorCode.NOT_LEADER, "not the leader; suggested "
                    + nle.getSuggestedLeader(), c);
        }
        return new CatalogException(ErrorCode.UNAVAILABLE, "catalog unavailable: " + c, c);
    }

    @Override
    public void close() {
        try {
            client.close();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
