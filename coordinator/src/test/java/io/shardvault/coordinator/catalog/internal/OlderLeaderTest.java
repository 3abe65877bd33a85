package io.shardvault.coordinator.catalog.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardvaultException;
import io.shardvault.coordinator.catalog.CatalogException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A coordinator of a newer build calling a catalog leader of an older one (a rolling upgrade): an op the leader
 * does not know is answered as every build answers it (BAD_REQUEST, "unknown catalog op N", from the query path's
 * {@link Op#of}), recognized, and asked again with the ops the older build has.
 */
class OlderLeaderTest {
    /** What the query path answers for an op code it has no op for, as the caller decodes it. */
    private static CatalogException unknownOpAnswer() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Op.of(255));
        return new CatalogException(ErrorCode.BAD_REQUEST, e.getMessage());
    }

    @Test
    void anOpThePeerDoesNotKnowIsRecognizedAndNothingElse() {
        assertThat(Op.unknownToPeer(unknownOpAnswer())).isTrue();
        assertThat(Op.unknownToPeer(new CompletionException(unknownOpAnswer()))).isTrue();
        assertThat(Op.unknownToPeer(new CatalogException(ErrorCode.BAD_REQUEST, "bad key"))).isFalse();
        assertThat(Op.unknownToPeer(new CatalogException(ErrorCode.NO_SUCH_KEY, "k"))).isFalse();
        assertThat(Op.unknownToPeer(new CatalogException(ErrorCode.INVALID_ARGUMENT,
                unknownOpAnswer().getMessage()))).isFalse();
    }

    @Test
    void anOlderLeadersAnswerIsAskedOnlyWhenTheLeaderDoesNotKnowTheOp() {
        AtomicInteger asked = new AtomicInteger();
        assertThat(RatisCatalog.orFromAnOlderLeader(CompletableFuture.<String>failedFuture(unknownOpAnswer()),
                () -> {
                    asked.incrementAndGet();
                    return CompletableFuture.completedFuture("in two reads");
                }).join()).isEqualTo("in two reads");
        assertThat(asked).hasValue(1);

        assertThat(RatisCatalog.orFromAnOlderLeader(CompletableFuture.completedFuture("in one read"), () -> {
            asked.incrementAndGet();
            return CompletableFuture.completedFuture("in two reads");
        }).join()).isEqualTo("in one read");
        CompletableFuture<String> missing = RatisCatalog.orFromAnOlderLeader(
                CompletableFuture.failedFuture(new CatalogException(ErrorCode.NO_SUCH_BUCKET, "b")), () -> {
                    asked.incrementAndGet();
                    return CompletableFuture.completedFuture("in two reads");
                });
        assertThatThrownBy(missing::join).satisfies(t ->
                assertThat(((ShardvaultException) ShardvaultException.unwrap(t)).code()).isEqualTo(ErrorCode.NO_SUCH_BUCKET));
        assertThat(asked).as("asked again only for the unknown op").hasValue(1);
    }
}
