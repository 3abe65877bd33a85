package io.shardvault.common.os;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.shardvault.common.nativelib.NativeLibraries;
import io.shardvault.common.nativelib.OsCalls;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ThreadPriorityTest {

    private static final boolean REQUIRED = "true".equalsIgnoreCase(System.getenv("SHARDVAULT_REQUIRE_NATIVE"));

    @Test
    void loadsWhenRequired() {
        if (REQUIRED) {
            String resource = NativeLibraries.resourcePath(OsCalls.LIBRARY);
            assertThat(getClass().getClassLoader().getResource(resource))
                    .as("%s on the classpath (built by common/src/main/native/build.sh)", resource).isNotNull();
            assertThat(ThreadPriority.unavailableBecause()).isNull();
        }
    }

    @Test
    void aThreadLowersItsOwnPrioritiesAndNoOneElses() throws Exception {
        assumeTrue(ThreadPriority.unavailableBecause() == null, ThreadPriority.unavailableBecause());
        int caller = ThreadPriority.currentTid();
        int callerNice = niceOf(caller);
        ThreadPriority.IoPriority callerIo = ThreadPriority.ioPriorityOf(caller);
        CompletableFuture<Integer> started = new CompletableFuture<>();
        CompletableFuture<Void> lowered = new CompletableFuture<>();
        CountDownLatch read = new CountDownLatch(1);
        Thread background = new Thread(() -> {
            try {
                started.complete(ThreadPriority.currentTid());
                ThreadPriority.lowerCurrentThread(7);
                lowered.complete(null);
                read.await();
            } catch (Throwable e) {
                lowered.completeExceptionally(e);
            }
        }, "lowered");
        background.start();
        int tid = started.get(10, TimeUnit.SECONDS);
        lowered.get(10, TimeUnit.SECONDS);
        try {
            // Not the value it started with (a thread inherits its creator's nice), so the check cannot pass idly.
            assertThat(callerNice).isNotEqualTo(7);
            assertThat(niceOf(tid)).isEqualTo(7);
            assertThat(ThreadPriority.ioPriorityOf(tid)).isEqualTo(new ThreadPriority.IoPriority(
                    ThreadPriority.IO_CLASS_BEST_EFFORT, ThreadPriority.IO_LEVEL_LOWEST));
            assertThat(niceOf(caller)).isEqualTo(callerNice);
            assertThat(ThreadPriority.ioPriorityOf(caller)).isEqualTo(callerIo);
        } finally {
            read.countDown();
            background.join(10_000);
        }
    }

    @Test
    void aLowerPriorityIsANiceValueFromOneToNineteen() {
        assertThatThrownBy(() -> ThreadPriority.lowerCurrentThread(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1..19");
        assertThatThrownBy(() -> ThreadPriority.lowerCurrentThread(20)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Field 19 of /proc/self/task/TID/stat, counted after the command name (which may hold spaces). */
    static int niceOf(int tid) throws IOException {
        String stat = Files.readString(Path.of("/proc/self/task/" + tid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(fields[19 - 3]);
    }
}
