package io.shardvault.stash.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.common.ShardId;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class EarlyPurgesTest {
    private final AtomicLong now = new AtomicLong(1_000);
    private final EarlyPurges purges = new EarlyPurges(3, 100, now::get);

    @Test
    void aPurgedIdIsRememberedUntilItsAgeRunsOut() {
        ShardId id = new ShardId(1, 1, 1);
        assertThat(purges.purged(id)).isFalse();
        purges.purgedAbsent(id);
        now.addAndGet(100);
        assertThat(purges.purged(id)).isTrue();
        assertThat(purges.purged(id)).as("a retried PUT comes too late as well").isTrue();
        now.addAndGet(1);
        assertThat(purges.purged(id)).isFalse();
        assertThat(purges.size()).isZero();
    }

    @Test
    void beyondItsCountTheOldestIsForgotten() {
        for (int file = 1; file <= 4; file++) {
            purges.purgedAbsent(new ShardId(1, file, 0));
            now.incrementAndGet();
        }
        assertThat(purges.size()).isEqualTo(3);
        assertThat(purges.purged(new ShardId(1, 1, 0))).isFalse();
        assertThat(purges.purged(new ShardId(1, 4, 0))).isTrue();
    }

    @Test
    void aPurgeAgainRestartsItsAge() {
        ShardId id = new ShardId(2, 5, 3);
        purges.purgedAbsent(id);
        purges.purgedAbsent(new ShardId(2, 6, 3));
        now.addAndGet(60);
        purges.purgedAbsent(id);
        now.addAndGet(60);
        assertThat(purges.purged(new ShardId(2, 6, 3))).isFalse();
        assertThat(purges.purged(id)).isTrue();
    }
}
