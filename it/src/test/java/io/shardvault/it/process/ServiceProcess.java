package io.shardvault.it.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One service (a stash server, a pod process, a coordinator, an admin CLI run) in a JVM of its own, started
 * from a fat JAR, its standard output and error appended to a log file. Unlike common's {@code ChildJvm}
 * (this test's class path, output drained into the test's log), it runs what ships: the JAR and its
 * manifest, settings as files and environment variables, and leaves a log per process that outlives it.
 *
 * <p>Readiness is a line the program prints ({@link #awaitLine}); {@link #stop()} is SIGTERM, then SIGKILL
 * after {@link #GRACE}; {@link #kill()} is SIGKILL now. Every wait is bounded, and every failure message
 * carries the log's tail. Not thread-safe: drive it from the test thread.
 */
public final class ServiceProcess {
    private static final Logger LOG = LoggerFactory.getLogger(ServiceProcess.class);
    /** How long a SIGTERM may take (a pod flushes, a coordinator closes its catalog) before SIGKILL. */
    static final Duration GRACE = Duration.ofSeconds(30);
    private static final int TAIL_LINES = 40;

    private final String name;
    private final Path log;
    private final Process process;

    private ServiceProcess(String name, Path log, Process process) {
        this.name = name;
        this.log = log;
        this.process = process;
    }

    /**
     * Starts {@code <launcher> java <jvmArgs> <mainAndArgs>} with {@code env} added to this JVM's environment,
     * output appended to {@code log} (several runs of one service share a log, each run's lines after the last's).
     * The launcher (none, or {@code ip netns exec NS}) must exec the JVM: the process is the JVM's.
     */
    static ServiceProcess start(String name, List<String> launcher, List<String> jvmArgs, List<String> mainAndArgs,
                                Map<String, String> env, Path log) throws IOException {
        List<String> command = new ArrayList<>(launcher);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmArgs);
        command.addAll(mainAndArgs);
        return exec(name, command, env, log);
    }

    /**
     * Starts {@code command} as it is (a script that execs the JVM, say: {@code bin/shardvault run stash ...}),
     * otherwise as {@link #start}.
     */
    public static ServiceProcess exec(String name, List<String> command, Map<String, String> env, Path log)
            throws IOException {
        Files.createDirectories(log.getParent());
        Files.writeString(log, "---- " + name + ": " + String.join(" ", command) + System.lineSeparator(),
                StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(env);
        Process process = builder.start();
        LOG.info("started {} (pid {}), log {}", name, process.pid(), log);
        return new ServiceProcess(name, log, process);
    }

    public String name() {
        return name;
    }

    public Path log() {
        return log;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The process's id: the JVM's, when a script exec'd it. */
    public long pid() {
        return process.pid();
    }

    /**
     * Waits for a line of this run starting with {@code prefix}; returns the rest of it, trimmed.
     *
     * @throws IllegalStateException if the process exits first
     * @throws TimeoutException if no such line appears within {@code timeout}
     */
    public String awaitLine(String prefix, Duration timeout) throws IOException, InterruptedException,
            TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            // Read the process's state before the log: a line printed just before it exited is still seen.
            boolean alive = process.isAlive();
            for (String line : thisRun()) {
                if (line.startsWith(prefix)) {
                    return line.substring(prefix.length()).trim();
                }
            }
            if (!alive) {
                throw new IllegalStateException(name + " exited (status " + process.exitValue() + ") before printing \""
                        + prefix + "\"; " + tail());
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException(name + " did not print \"" + prefix + "\" within " + timeout + "; " + tail());
            }
            Thread.sleep(50);
        }
    }

    /** Waits for the process to exit on its own; returns its status. */
    public int awaitExit(Duration timeout) throws InterruptedException, TimeoutException, IOException {
        if (!process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            throw new TimeoutException(name + " still running after " + timeout + "; " + tail());
        }
        return process.exitValue();
    }

    /**
     * SIGTERM, and up to {@link #GRACE} to exit, then SIGKILL; returns once the process is gone. Interrupted,
     * it kills at once and keeps the interrupt (cleanup must not be cut short by it).
     */
    public void stop() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (process.waitFor(GRACE.toNanos(), TimeUnit.NANOSECONDS)) {
                LOG.info("stopped {} (pid {}, status {})", name, process.pid(), process.exitValue());
                return;
            }
            LOG.warn("{} (pid {}) ignored SIGTERM for {}; killing it", name, process.pid(), GRACE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        kill();
    }

    /** SIGKILL now; returns once the process is gone (or at once, interrupt kept, when interrupted). */
    public void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException(name + " (pid " + process.pid() + ") survived SIGKILL for 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        LOG.info("killed {} (pid {})", name, process.pid());
    }

    /** The last lines of this run's log, for failure messages. */
    public String tail() throws IOException {
        List<String> lines = thisRun();
        return "last lines of " + log + ":\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES),
                lines.size()));
    }

    /** The output of this run: the log from its header line on. */
    public String output() throws IOException {
        return String.join("\n", thisRun());
    }

    private List<String> thisRun() throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
        int start = 0;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("---- " + name + ": ")) {
                start = i;
            }
        }
        return lines.subList(start, lines.size());
    }
}
