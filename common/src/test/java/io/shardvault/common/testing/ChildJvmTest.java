package io.shardvault.common.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ChildJvmTest {
    /** Prints its arguments, one a line, then exits 7, or with {@code -Dhang=true} sleeps instead. */
    public static final class Printer {
        public static void main(String[] args) throws InterruptedException {
            for (String arg : args) {
                System.out.println(arg);
            }
            System.out.flush();
            if (Boolean.getBoolean("hang")) {
                Thread.sleep(TimeUnit.MINUTES.toMillis(5));
            }
            System.exit(7);
        }
    }

    @Test
    void awaitLineReturnsTheRestOfTheLineAndAwaitExitTheExitCode() throws Exception {
        try (ChildJvm child = ChildJvm.builder(Printer.class).args("hello", "ready on 127.0.0.1:5 ").start()) {
            assertThat(child.awaitLine("ready on ", Duration.ofSeconds(60))).isEqualTo("127.0.0.1:5");
            assertThat(child.awaitExit(Duration.ofSeconds(60))).isEqualTo(7);
            assertThat(child.output()).containsExactly("hello", "ready on 127.0.0.1:5 ");
        }
    }

    @Test
    void awaitLineFailsWithTheOutputWhenTheChildExitsWithoutTheLine() throws Exception {
        try (ChildJvm child = ChildJvm.builder(Printer.class).args("something else").start()) {
            assertThatThrownBy(() -> child.awaitLine("ready on ", Duration.ofSeconds(60)))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("something else");
        }
    }

    @Test
    void awaitLineTimesOutAndKill9EndsAHangingChild() throws Exception {
        try (ChildJvm child = ChildJvm.builder(Printer.class).jvmArgs("-Dhang=true").args("up").start()) {
            assertThat(child.awaitLine("up", Duration.ofSeconds(60))).isEmpty();
            assertThatThrownBy(() -> child.awaitLine("never", Duration.ofMillis(200)))
                    .isInstanceOf(TimeoutException.class);
            child.kill9();
            assertThat(child.isAlive()).isFalse();
            assertThat(child.exitValue()).isEqualTo(137);
        }
    }
}
