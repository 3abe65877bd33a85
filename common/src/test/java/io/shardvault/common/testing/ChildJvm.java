package io.shardvault.common.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A main class running in a child JVM with this test's classpath, for tests that need a real
 * process: to kill it with SIGKILL, to see what the shipped program prints, or to read the address
 * it announces. Stdout and stderr are merged and drained on a daemon thread into this JVM's log
 * (prefixed with the child's name and pid) and into {@link #output()}, so the child never blocks
 * on a full pipe. {@link #close()} stops the child gently (SIGTERM), then forcibly if it lingers.
 *
 * <p>Thread-safe: the drain thread appends lines while test threads read them.
 */
public final class ChildJvm implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ChildJvm.class);
    private static final Duration GRACE = Duration.ofSeconds(30);

    private final String name;
    private final Process process;
    private final Thread drain;
    private final List<String> lines = new ArrayList<>();
    private boolean ended;

    private ChildJvm(String name, Process process) {
        this.name = name;
        this.process = process;
        this.drain = new Thread(this::drain, name + "-child-output");
        drain.setDaemon(true);
        drain.start();
    }

    /** A child JVM that will run {@code mainClass}, which must be on this test's classpath. */
    public static Builder builder(Class<?> mainClass) {
        return new Builder(mainClass);
    }

    /**
     * Waits for the first line (printed so far or later) starting with {@code prefix} and returns
     * the rest of it, trimmed.
     *
     * @throws IllegalStateException if the child's output ends without such a line
     * @throws TimeoutException if no such line appears within {@code timeout}
     */
    public String awaitLine(String prefix, Duration timeout) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lines) {
            for (int next = 0; ; ) {
                for (; next < lines.size(); next++) {
                    if (lines.get(next).startsWith(prefix)) {
                        return lines.get(next).substring(prefix.length()).trim();
                    }
                }
                if (ended) {
                    throw new IllegalStateException(name + " exited before printing \"" + prefix + "\":\n" + tail());
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new TimeoutException(name + " did not print \"" + prefix + "\" within " + timeout + ":\n"
                            + tail());
                }
                TimeUnit.NANOSECONDS.timedWait(lines, left);
            }
        }
    }

    /** Every line the child printed so far. */
    public List<String> output() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    /**
     * Waits for the child to exit on its own and for its output to be drained.
     *
     * @return the exit code
     * @throws TimeoutException if it is still running after {@code timeout} (it is left running)
     */
    public int awaitExit(Duration timeout) throws InterruptedException, TimeoutException {
        if (!process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            throw new TimeoutException(name + " still running after " + timeout + ":\n" + tail());
        }
        drain.join(TimeUnit.SECONDS.toMillis(10));
        return process.exitValue();
    }

    /** SIGKILL, and waits until the process is gone. */
    public void kill9() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException(name + " (pid " + process.pid() + ") survived SIGKILL for 30 s");
        }
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public long pid() {
        return process.pid();
    }

    /** The exit code; the child must have exited. */
    public int exitValue() {
        return process.exitValue();
    }

    /**
     * SIGTERM and up to 30 s to exit, then SIGKILL. Interrupted, it kills at once and keeps the
     * interrupt (an AutoCloseable should not throw InterruptedException).
     */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(GRACE.toNanos(), TimeUnit.NANOSECONDS)) {
                LOG.warn("{} (pid {}) ignored SIGTERM for {}; killing it", name, process.pid(), GRACE);
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private void drain() {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line; (line = out.readLine()) != null; ) {
                LOG.info("[{} pid {}] {}", name, process.pid(), line);
                synchronized (lines) {
                    lines.add(line);
                    lines.notifyAll();
                }
            }
        } catch (IOException e) {
            // The pipe closes under us when the child is killed: its output simply ends here.
            LOG.debug("{} output ended: {}", name, e.toString());
        } finally {
            synchronized (lines) {
                ended = true;
                lines.notifyAll();
            }
        }
    }

    /** The last 40 lines the child printed, for a failure's message. */
    public String tail() {
        synchronized (lines) {
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        }
    }

    /** What to run: the JVM options and program arguments around the main class. */
    public static final class Builder {
        private final Class<?> mainClass;
        private final List<String> jvmArgs = new ArrayList<>();
        private final List<String> args = new ArrayList<>();
        private String name;

        private Builder(Class<?> mainClass) {
            this.mainClass = mainClass;
            this.name = mainClass.getSimpleName();
        }

        /** How the child's lines are tagged in the log and in failure messages; the main class's simple name by default. */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        /** JVM options such as {@code -Xmx256m} or {@code -Dkey=value}, before the main class. */
        public Builder jvmArgs(String... options) {
            return jvmArgs(List.of(options));
        }

        public Builder jvmArgs(List<String> options) {
            jvmArgs.addAll(options);
            return this;
        }

        /** Program arguments, after the main class. */
        public Builder args(String... arguments) {
            return args(List.of(arguments));
        }

        public Builder args(List<String> arguments) {
            args.addAll(arguments);
            return this;
        }

        public ChildJvm start() throws IOException {
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(jvmArgs);
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass.getName()));
            command.addAll(args);
            LOG.info("starting {}: {} {}", name, jvmArgs, args);
            return new ChildJvm(name, new ProcessBuilder(command).redirectErrorStream(true).start());
        }
    }
}
