package io.shardvault.pod.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.ShardId;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** An operator's retryNow cuts the purge sender's back-off short: delivery resumes at once. */
@Timeout(60)
class PurgeSenderRetryTest {

    private static boolean awaitDepth(PurgeQueue queue, long depth, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < deadline) {
            if (queue.depth() == depth) {
                return true;
            }
            Thread.sleep(20);
        }
        return queue.depth() == depth;
    }

    @Test
    void retryNowDeliversWithoutWaitingOutTheBackoff(@TempDir Path dir) throws Exception {
        InMemoryStash stash = new InMemoryStash();
        stash.setDown(true);
        try (PurgeQueue queue = PurgeQueue.open(dir, 1 << 20, Clock.systemUTC())) {
            // A back-off of a minute: without retryNow nothing is delivered within this test's time.
            PurgeSender sender = new PurgeSender("t", queue, stash, 100, Duration.ofSeconds(60), Duration.ofSeconds(60),
                    Duration.ofSeconds(5), Duration.ZERO, new PodMetrics(new SimpleMeterRegistry(), "t"));
            try {
                sender.start();
                queue.append(List.of(new ShardId(0, 1, 0), new ShardId(0, 2, 0)));
                // The first attempt fails (stash down) and the sender backs off.
                Thread.sleep(500);
                stash.setDown(false);
                assertThat(awaitDepth(queue, 0, 1_000)).as("delivered before any retry was forced").isFalse();
                sender.retryNow();
                assertThat(awaitDepth(queue, 0, 10_000)).as("delivered once a retry was forced").isTrue();
                assertThat(stash.purged()).hasSize(2);
            } finally {
                sender.close();
            }
        }
    }
}
