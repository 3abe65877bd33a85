package io.shardvault.pod.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(60)
class SimulatedHddTomeIoTest {
    @TempDir
    Path dir;

    @Test
    void theModelledDelayIsARotationPlusTheTransfer() {
        SimulatedHddTomeIo hdd = new SimulatedHddTomeIo(DirectTomeIo.INSTANCE, 42);
        long transfer = 26_100_000L * 1_000_000_000L / SimulatedHddTomeIo.BYTES_PER_SECOND; // 100 ms
        long min = Long.MAX_VALUE;
        long max = 0;
        for (int i = 0; i < 10_000; i++) {
            long nanos = hdd.syncNanos(26_100_000L) - transfer;
            min = Math.min(min, nanos);
            max = Math.max(max, nanos);
        }
        assertThat(transfer).isEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
        assertThat(min).isBetween(0L, TimeUnit.MICROSECONDS.toNanos(100));
        assertThat(max).isBetween(TimeUnit.MICROSECONDS.toNanos(8_200), SimulatedHddTomeIo.MAX_ROTATION_NANOS);
    }

    @Test
    void syncsOnOneTomeWaitTheirTurn() throws Exception {
        SimulatedHddTomeIo hdd = new SimulatedHddTomeIo(DirectTomeIo.INSTANCE, 7);
        int threads = 4;
        int syncsEach = 5;
        long bytes = 2_610_000; // 10 ms of transfer per sync
        CountDownLatch done = new CountDownLatch(threads);
        long start = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            Path file = dir.resolve("f" + t);
            new Thread(() -> {
                try (TomeFile f = hdd.open(file, TomeIo.OpenMode.CREATE_NEW)) {
                    for (int i = 0; i < syncsEach; i++) {
                        f.write(ByteBuffer.wrap(new byte[100]), i * 100L);
                        f.sync(bytes);
                    }
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                } finally {
                    done.countDown();
                }
            }).start();
        }
        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        long took = System.nanoTime() - start;
        // 20 serialised syncs of at least 10 ms each: in parallel they would take ~50 ms.
        assertThat(took).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(200));
    }
}
