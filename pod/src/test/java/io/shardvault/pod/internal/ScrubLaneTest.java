package io.shardvault.pod.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.shardvault.common.os.ThreadPriority;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ScrubLaneTest {

    @Test
    void theLaneThreadRunsAtTheConfiguredLowerPriority() throws Exception {
        assumeTrue(ThreadPriority.unavailableBecause() == null, ThreadPriority.unavailableBecause());
        int ownNice = niceOf(ThreadPriority.currentTid());
        assertThat(ownNice).as("the test's own nice value, which a lane thread starts with").isNotEqualTo(10);
        try (ScrubLane lane = ScrubLane.start(10)) {
            int tid = tidOf(lane.threadName());
            ThreadPriority.IoPriority lowest = new ThreadPriority.IoPriority(
                    ThreadPriority.IO_CLASS_BEST_EFFORT, ThreadPriority.IO_LEVEL_LOWEST);
            // The lane lowers its nice value and then its I/O priority, two calls: wait for both, since a
            // check between them sees the one and not yet the other (it did, once, in CI).
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while ((niceOf(tid) != 10 || !lowest.equals(ThreadPriority.ioPriorityOf(tid)))
                    && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(niceOf(tid)).isEqualTo(10);
            assertThat(ThreadPriority.ioPriorityOf(tid)).isEqualTo(lowest);
        }
    }

    @Test
    void niceZeroLeavesTheLaneAtTheProcessPriority() throws Exception {
        assumeTrue(ThreadPriority.unavailableBecause() == null, ThreadPriority.unavailableBecause());
        int ownNice = niceOf(ThreadPriority.currentTid());
        try (ScrubLane lane = ScrubLane.start(0)) {
            int tid = tidOf(lane.threadName());
            Thread.sleep(200);
            assertThat(niceOf(tid)).isEqualTo(ownNice);
        }
    }

    @Test
    void aNiceValueOutsideZeroToNineteenIsRefused() {
        assertThatThrownBy(() -> ScrubLane.start(20)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pod.scrub.nice");
        assertThatThrownBy(() -> ScrubLane.start(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    /** The id of this process's thread named {@code name}, from /proc/self/task/TID/comm (waits for it). */
    private static int tidOf(String name) throws IOException, InterruptedException {
        for (int attempt = 0; attempt < 500; attempt++) {
            try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
                OptionalInt tid = tasks.filter(t -> name.equals(comm(t)))
                        .mapToInt(t -> Integer.parseInt(t.getFileName().toString())).findFirst();
                if (tid.isPresent()) {
                    return tid.getAsInt();
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no thread named " + name + " in /proc/self/task");
    }

    private static String comm(Path task) {
        try {
            return Files.readString(task.resolve("comm")).trim();
        } catch (IOException gone) {
            return "";
        }
    }

    /** Field 19 of /proc/self/task/TID/stat, counted after the command name (which may hold spaces). */
    private static int niceOf(int tid) throws IOException {
        String stat = Files.readString(Path.of("/proc/self/task/" + tid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(fields[19 - 3]);
    }
}
