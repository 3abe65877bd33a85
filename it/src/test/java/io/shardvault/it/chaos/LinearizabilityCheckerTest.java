package io.shardvault.it.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The Porcupine checker on histories whose verdict is known: it must catch a stale read, a conditional put
 * that succeeded over an object, and accept what an unknown outcome allows. Skipped without Go, as ChaosIT.
 */
class LinearizabilityCheckerTest {
    private static LinearizabilityChecker checker;

    @TempDir
    Path dir;

    @BeforeAll
    static void build() throws Exception {
        Optional<Path> go = LinearizabilityChecker.go();
        assumeTrue(go.isPresent(), "no Go toolchain: the checker is a Go program");
        checker = LinearizabilityChecker.build(go.get());
    }

    @Test
    void aReadOfAnOverwrittenValueIsNotLinearizableAndIsShownWithItsSmallestFailingSubHistory() throws Exception {
        LinearizabilityChecker.Verdict verdict = check(
                op(0, "put", "k", "aaaa", 0, 10, Op.OK, 200),
                op(1, "put", "k", "bbbb", 20, 30, Op.OK, 200),
                op(2, "get", "k", "bbbb", 31, 35, Op.OK, 200),
                op(2, "get", "k", "aaaa", 40, 50, Op.OK, 200),
                op(3, "get", "k", null, 40, 50, Op.UNKNOWN, 0),
                op(0, "put", "other", "cccc", 0, 10, Op.OK, 200));
        assertThat(verdict.exit()).as(verdict.output()).isEqualTo(1);
        assertThat(verdict.output()).contains("b/k: NOT LINEARIZABLE", "b/other: linearizable",
                "smallest failing sub-history (3 of 4 ops)");
        assertThat(LinearizabilityChecker.visualizations(dir.resolve("history.jsonl")))
                .containsExactly(dir.resolve("b-k.html"));
    }

    @Test
    void aConditionalPutAcknowledgedOverAnObjectIsNotLinearizable() throws Exception {
        LinearizabilityChecker.Verdict verdict = check(
                op(0, "put", "k", "aaaa", 0, 10, Op.OK, 200),
                op(1, "cput", "k", "bbbb", 20, 30, Op.OK, 200));
        assertThat(verdict.exit()).as(verdict.output()).isEqualTo(1);
    }

    @Test
    void anUnknownWriteMayTakeEffectLateOrNeverAndA412SeesIt() throws Exception {
        LinearizabilityChecker.Verdict verdict = check(
                op(3, "put", "k", "cccc", 30, 35, Op.UNKNOWN, 0),
                op(3, "get", "k", null, 40, 50, Op.OK, 404),
                op(4, "cput", "k", "dddd", 60, 65, Op.FAIL, 412),
                op(4, "get", "k", "cccc", 70, 75, Op.OK, 200),
                op(5, "delete", "k", null, 80, 85, Op.UNKNOWN, 0),
                op(5, "put", "gone", "eeee", 0, 5, Op.UNKNOWN, 0),
                op(5, "get", "gone", null, 10, 15, Op.OK, 404),
                op(6, "put", "refused", "ffff", 0, 5, Op.FAIL, 403),
                op(6, "get", "refused", null, 10, 15, Op.OK, 404));
        assertThat(verdict.exit()).as(verdict.output()).isZero();
        assertThat(verdict.output()).contains("3 registers", "linearizable");
    }

    /** The checker first tries the history without unknown writes no get returned; a 412 may need one of them. */
    @Test
    void aWriteOfUnknownOutcomeNoOneReadMayStillBeWhatA412Saw() throws Exception {
        LinearizabilityChecker.Verdict verdict = check(
                op(0, "put", "k", "aaaa", 0, 10, Op.UNKNOWN, 0),
                op(1, "cput", "k", "bbbb", 20, 30, Op.FAIL, 412),
                op(2, "delete", "k", null, 40, 50, Op.OK, 204),
                op(2, "get", "k", null, 60, 70, Op.OK, 404),
                op(3, "put", "decided", "cccc", 0, 10, Op.UNKNOWN, 0),
                op(3, "get", "decided", null, 20, 30, Op.OK, 404));
        assertThat(verdict.exit()).as(verdict.output()).isZero();
        assertThat(verdict.output()).contains("b/k: linearizable (4 ops)",
                "b/decided: linearizable (2 ops; decided on 1 after pruning)");
    }

    /**
     * A GET answered 503 (too few shards readable while pods are down) read nothing: the client classifies it
     * as no answer, and the checker leaves it out. Taken for a 404, it would contradict the put before it.
     */
    @Test
    void aGetAnswered503ReadNothing() throws Exception {
        S3Exception unavailable = (S3Exception) S3Exception.builder().statusCode(503)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("ServiceUnavailable").build()).build();
        String outcome = ChaosClient.outcome(unavailable, false);
        assertThat(outcome).isNotEqualTo(Op.OK);
        LinearizabilityChecker.Verdict verdict = check(
                op(0, "put", "k", "aaaa", 0, 10, Op.OK, 200),
                op(1, "get", "k", null, 20, 30, outcome, 503),
                op(1, "get", "k", "aaaa", 40, 50, Op.OK, 200));
        assertThat(verdict.exit()).as(verdict.output()).isZero();
        assertThat(verdict.output()).contains("b/k: linearizable (2 ops)");
    }

    /**
     * Deletes of unknown outcome (a coordinator killed under its clients) stay pending to the end of the full
     * history, where Porcupine tries every subset of them before each read: here none had taken effect by the
     * first get and one had by the 404, and the full history is undecided within the checker's minute. The
     * checker prunes them (dropped, or bounded by the absence they could explain) and decides at once.
     */
    @Test
    void deletesOfUnknownOutcomeArePruned() throws Exception {
        List<Op> ops = new ArrayList<>(List.of(op(0, "put", "k", "aaaa", 0, 1, Op.OK, 200)));
        for (int n = 0; n < 30; n++) {
            ops.add(op(10 + n, "delete", "k", null, 2 + n, 2 + n, Op.UNKNOWN, 0));
        }
        ops.add(op(1, "get", "k", "aaaa", 40, 41, Op.OK, 200));
        ops.add(op(1, "get", "k", null, 50, 51, Op.OK, 404));
        for (int i = 1; i <= 10; i++) {
            ops.add(op(2, "put", "k", "b" + i, 100L * i, 100L * i + 1, Op.OK, 200));
            ops.add(op(1, "get", "k", "b" + i, 100L * i + 2, 100L * i + 3, Op.OK, 200));
        }
        LinearizabilityChecker.Verdict verdict = check(ops.toArray(Op[]::new));
        assertThat(verdict.exit()).as(verdict.output()).isZero();
        assertThat(verdict.output()).contains("b/k: linearizable (53 ops; decided on");
    }

    /**
     * A listing must name a key whose put was acknowledged before it began unless a delete may have come
     * between, and must not name one deleted before it began with no write that may have followed.
     */
    @Test
    void aListingLackingAnAcknowledgedKeyOrNamingADeletedOneIsAViolation() throws Exception {
        LinearizabilityChecker.Verdict verdict = check(
                op(0, "put", "kept", "aaaa", 0, 10, Op.OK, 200),
                op(0, "put", "gone", "bbbb", 0, 10, Op.OK, 200),
                op(1, "delete", "gone", null, 12, 15, Op.OK, 204),
                list(2, 20, 30, "gone"));
        assertThat(verdict.exit()).as(verdict.output()).isEqualTo(1);
        assertThat(verdict.output()).contains("lacks kept", "names gone", "2 registers, 3 ops checked: linearizable",
                "1 listings, 2 keys' presence decided: 2 violations");
    }

    /** What an unknown delete or an unknown put may have done, a listing may show either way. */
    @Test
    void aListingMayShowWhatAnOpOfUnknownOutcomeMayHaveDone() throws Exception {
        LinearizabilityChecker.Verdict verdict = check(
                op(0, "put", "maybeDeleted", "aaaa", 0, 10, Op.OK, 200),
                op(1, "delete", "maybeDeleted", null, 12, 15, Op.UNKNOWN, 0),
                op(0, "put", "maybeWritten", "bbbb", 0, 10, Op.OK, 200),
                op(1, "delete", "maybeWritten", null, 12, 15, Op.OK, 204),
                op(1, "put", "maybeWritten", "cccc", 16, 17, Op.UNKNOWN, 0),
                list(2, 20, 30, "maybeWritten"),
                list(2, 40, 50, "maybeDeleted"));
        assertThat(verdict.exit()).as(verdict.output()).isZero();
        assertThat(verdict.output()).contains("2 listings, 0 keys' presence decided: consistent");
    }

    private LinearizabilityChecker.Verdict check(Op... ops) throws Exception {
        try (History history = new History(dir.resolve("history.jsonl"))) {
            for (Op op : ops) {
                history.record(op);
            }
        }
        return checker.check(dir.resolve("history.jsonl"));
    }

    private static Op list(int client, long invoke, long complete, String... keys) {
        return new Op(client, 0, "list", "b", null, null, null, invoke, complete, Op.OK, 200, List.of(keys), null);
    }

    private static Op op(int client, String op, String key, String digest, long invoke, long complete,
                         String outcome, int status) {
        return new Op(client, 0, op, "b", key, digest, null, invoke, complete, outcome, status, List.of(), null);
    }
}
