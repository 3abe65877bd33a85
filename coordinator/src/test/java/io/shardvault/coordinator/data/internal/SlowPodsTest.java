package io.shardvault.coordinator.data.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class SlowPodsTest {
    private static final List<InetSocketAddress> PODS = pods(20);
    private final AtomicLong now = new AtomicLong(1_000);
    private final SlowPods slowPods = new SlowPods(now::get);

    /** Late on a fifth of {@link SlowPods#MIN_WAITED} reads: the least lateness that makes a pod slow. */
    private static final int LATE = SlowPods.MIN_WAITED / SlowPods.LATE_SHARE;

    @Test
    void aPodLateFarMoreOftenThanItsPeersIsGoneAround() {
        assertThat(slowPods.slowAmong(PODS)).containsOnly(false);
        waited(7, SlowPods.MIN_WAITED);
        late(7, LATE - 1);
        assertThat(slowPods.slowAmong(PODS)[7]).as("late on less than a fifth of its reads").isFalse();
        late(7, 1);
        boolean[] slow = slowPods.slowAmong(PODS);
        assertThat(slow[7]).isTrue();
        slow[7] = false;
        assertThat(slow).containsOnly(false);
    }

    @Test
    void everyPodLateNowAndThenIsNotSlow() {
        // A loaded machine: each pod late on some of its reads, one of them twice as often as the rest.
        for (int i = 0; i < PODS.size(); i++) {
            waited(i, SlowPods.MIN_WAITED);
            late(i, i == 3 ? 2 * LATE : LATE);
        }
        assertThat(slowPods.slowAmong(PODS)).containsOnly(false);
    }

    @Test
    void aPodLateOnFewOfTheReadsThatWaitedForItIsNotSlow() {
        // A busy vault with few hedges (14 in a window, 3 of them on pod 7): 4x the average, but 3 of 600 reads.
        for (int read = 0; read < 600; read++) {
            PODS.forEach(slowPods::waitedFor);
        }
        late(7, 3);
        for (int i = 0; i < 11; i++) {
            late(i < 7 ? i : i + 1, 1);
        }
        assertThat(slowPods.slowAmong(PODS)).as("late on 0.5 % of its reads").containsOnly(false);
    }

    @Test
    void aPodLateOnAFifthOfItsReadsIsSlow() {
        waited(7, 50);
        late(7, 9);
        assertThat(slowPods.slowAmong(PODS)[7]).as("9 of 50").isFalse();
        late(7, 1);
        assertThat(slowPods.slowAmong(PODS)[7]).as("10 of 50").isTrue();
    }

    @Test
    void aPodLateOnAFewOfItsFirstReadsIsNotSlow() {
        // A load starting after a pause: pod 7 late on 3 of the 10 reads that waited for it so far, no other.
        waited(7, 10);
        late(7, 3);
        assertThat(slowPods.slowAmong(PODS)[7]).as("3 of its first 10 reads").isFalse();
        waited(7, SlowPods.MIN_WAITED - 10);
        late(7, LATE - 3);
        assertThat(slowPods.slowAmong(PODS)[7]).as("%d of %d", LATE, SlowPods.MIN_WAITED).isTrue();
    }

    @Test
    void lateReadsAreForgottenAfterTwoWindows() {
        waited(2, SlowPods.MIN_WAITED);
        late(2, LATE);
        now.addAndGet(TimeUnit.SECONDS.toNanos(6));
        assertThat(slowPods.slowAmong(PODS)[2]).as("the previous window still counts").isTrue();
        now.addAndGet(TimeUnit.SECONDS.toNanos(5));
        assertThat(slowPods.slowAmong(PODS)[2]).isFalse();
        waited(2, SlowPods.MIN_WAITED);
        late(2, LATE);
        now.addAndGet(TimeUnit.SECONDS.toNanos(11));
        assertThat(slowPods.slowAmong(PODS)[2]).as("two windows at once").isFalse();
    }

    @Test
    void slownessIsJudgedAmongTheVaultsOwnPods() {
        List<InetSocketAddress> other = pods(40).subList(20, 40);
        waited(4, SlowPods.MIN_WAITED);
        late(4, LATE);
        for (InetSocketAddress pod : other) {
            for (int i = 0; i < 20; i++) {
                slowPods.late(pod);
            }
        }
        assertThat(slowPods.slowAmong(PODS)[4]).isTrue();
        assertThat(slowPods.slowAmong(other)).containsOnly(false);
    }

    private void waited(int pod, int times) {
        for (int i = 0; i < times; i++) {
            slowPods.waitedFor(PODS.get(pod));
        }
    }

    private void late(int pod, int times) {
        for (int i = 0; i < times; i++) {
            slowPods.late(PODS.get(pod));
        }
    }

    private static List<InetSocketAddress> pods(int n) {
        List<InetSocketAddress> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(InetSocketAddress.createUnresolved("pod" + i, 7500));
        }
        return out;
    }
}
