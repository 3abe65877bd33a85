package io.shardvault.coordinator.repair;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** {@link LeaderTenure}: leading, in one term, for the delay, as the tenure saw it. */
class LeaderTenureTest {
    private final AtomicBoolean leads = new AtomicBoolean();
    private final AtomicLong term = new AtomicLong(1);
    private final AtomicLong now = new AtomicLong(1_000);
    private final LeaderTenure tenure = new LeaderTenure(leads::get, term::get, Duration.ofNanos(100), now::get);

    @Test
    void aNewLeaderWaitsForTheDelayFromTheFirstTimeItWasSeenLeading() {
        assertThat(tenure.getAsBoolean()).isFalse();
        leads.set(true);
        now.addAndGet(500);
        assertThat(tenure.getAsBoolean()).as("just seen leading").isFalse();
        now.addAndGet(99);
        assertThat(tenure.getAsBoolean()).isFalse();
        now.addAndGet(1);
        assertThat(tenure.getAsBoolean()).isTrue();
    }

    @Test
    void losingTheLeadOrANewTermStartsTheDelayAgain() {
        leads.set(true);
        tenure.getAsBoolean();
        now.addAndGet(200);
        assertThat(tenure.getAsBoolean()).isTrue();

        term.set(2);
        assertThat(tenure.getAsBoolean()).as("a new term, even leading throughout").isFalse();
        now.addAndGet(100);
        assertThat(tenure.getAsBoolean()).isTrue();

        leads.set(false);
        assertThat(tenure.getAsBoolean()).isFalse();
        leads.set(true);
        now.addAndGet(1_000);
        assertThat(tenure.getAsBoolean()).as("lost and regained in the same term: seen anew").isFalse();
        now.addAndGet(100);
        assertThat(tenure.getAsBoolean()).isTrue();
    }

    @Test
    void anUnknownTermIsNotLeadingAndAZeroDelayIsTheLeadItself() {
        leads.set(true);
        term.set(-1);
        LeaderTenure immediate = new LeaderTenure(leads::get, term::get, Duration.ZERO, now::get);
        assertThat(immediate.getAsBoolean()).isFalse();
        term.set(3);
        assertThat(immediate.getAsBoolean()).isTrue();
        leads.set(false);
        assertThat(immediate.getAsBoolean()).isFalse();
        assertThatThrownBy(() -> new LeaderTenure(leads::get, term::get, Duration.ofNanos(-1), now::get))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
