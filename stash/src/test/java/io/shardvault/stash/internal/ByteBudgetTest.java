package io.shardvault.stash.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class ByteBudgetTest {
    @Test
    void takesOnlyWhatFitsAndGivesBack() {
        ByteBudget budget = new ByteBudget(100, 30);
        assertThat(budget.tryTake(70)).isTrue();
        assertThat(budget.tryTake(1)).isFalse();
        assertThat(budget.usedBytes()).isEqualTo(100);
        budget.give(20);
        assertThat(budget.tryTake(21)).isFalse();
        assertThat(budget.tryTake(20)).isTrue();
        assertThat(budget.tryTake(0)).isTrue();
    }

    @Test
    void concurrentTakersNeverOvershootAndFillItExactly() throws Exception {
        ByteBudget budget = new ByteBudget(10_000, 0);
        AtomicInteger granted = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            threads.add(new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 1_000; i++) {
                    if (budget.tryTake(7)) {
                        granted.incrementAndGet();
                    }
                }
            }));
        }
        threads.forEach(Thread::start);
        go.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(granted.get()).isEqualTo(10_000 / 7);
        assertThat(budget.usedBytes()).isEqualTo(10_000 / 7 * 7L);
    }
}
