package io.shardvault.it.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * The Go program under {@code it/src/test/go/chaoscheck} (Porcupine, the checker etcd's robustness tests
 * use), built with {@code go build} into {@code it/target/chaoscheck} and run on a history. Go is found on
 * the PATH or in {@code /usr/local/go/bin} (where {@code it/interop/install.sh}, which CI runs, finds it
 * too); Porcupine comes from the module proxy on the first build and from Go's module cache after.
 */
public final class LinearizabilityChecker {
    /** Relative to it/, the working directory of surefire and failsafe. */
    private static final Path SOURCE = Path.of("src", "test", "go", "chaoscheck");
    private static final Path BINARY = Path.of("target", "chaoscheck");
    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(3);
    /** The checker's own default time per key: enough for the CI run's histories and the checker's tests. */
    public static final Duration PER_KEY = Duration.ofSeconds(60);

    /** The checker's verdict: its exit status (0 linearizable, 1 not, 2 undecided) and what it printed. */
    public record Verdict(int exit, String output) {
        public boolean linearizable() {
            return exit == 0;
        }
    }

    private final Path binary;

    private LinearizabilityChecker(Path binary) {
        this.binary = binary;
    }

    /** The Go toolchain, if this machine has one. */
    public static Optional<Path> go() {
        List<Path> candidates = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(java.io.File.pathSeparator)) {
                candidates.add(Path.of(dir, "go"));
            }
        }
        candidates.add(Path.of("/usr/local/go/bin/go"));
        return candidates.stream().filter(Files::isExecutable).findFirst();
    }

    /** Builds the checker with {@code go}. */
    public static LinearizabilityChecker build(Path go) throws IOException, InterruptedException, TimeoutException {
        Path binary = BINARY.toAbsolutePath();
        Files.createDirectories(binary.getParent());
        Result built = exec(List.of(go.toString(), "build", "-buildvcs=false", "-o", binary.toString(), "."), SOURCE, BUILD_TIMEOUT);
        if (built.exit() != 0) {
            throw new IOException("go build of " + SOURCE + " failed (" + built.exit() + "):\n" + built.output());
        }
        return new LinearizabilityChecker(binary);
    }

    /** {@link #check(Path, Duration)} with {@link #PER_KEY}. */
    public Verdict check(Path history) throws IOException, InterruptedException, TimeoutException {
        return check(history, PER_KEY);
    }

    /**
     * Checks {@code history}, allowing {@code perKey} for each register (a key that needs more is undecided,
     * exit 2); visualizations of failing keys go beside it.
     */
    public Verdict check(Path history, Duration perKey) throws IOException, InterruptedException, TimeoutException {
        Result r = exec(List.of(binary.toString(), "-history", history.toString(), "-timeout", perKey.toSeconds() + "s"),
                history.getParent(), runTimeout(perKey));
        Files.writeString(history.resolveSibling("check.txt"), r.output(), StandardCharsets.UTF_8);
        return new Verdict(r.exit(), r.output());
    }

    /**
     * The whole run's bound: most keys decide in seconds, and a shrink of a failing key takes about as long as
     * its check again; 5 minutes as before for the default.
     */
    public static Duration runTimeout(Duration perKey) {
        return perKey.multipliedBy(4).plusMinutes(1);
    }

    private record Result(int exit, String output) {
    }

    private static Result exec(List<String> command, Path dir, Duration timeout) throws IOException,
            InterruptedException, TimeoutException {
        Path log = Files.createTempFile("chaoscheck", ".out");
        try {
            Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            if (!p.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                p.destroyForcibly();
                throw new TimeoutException(String.join(" ", command) + " still running after " + timeout);
            }
            return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** Every visualization the checker wrote for {@code history}'s failing keys. */
    public static List<Path> visualizations(Path history) throws IOException {
        try (Stream<Path> files = Files.list(history.getParent())) {
            return files.filter(f -> f.toString().endsWith(".html")).sorted().toList();
        }
    }
}
