package io.shardvault.it.release;

import io.shardvault.it.process.ProcessCluster;
import io.shardvault.it.process.ServiceProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The release tarball the reactor's dist module packed, unpacked into a directory of its own (outside the
 * checkout, so nothing of the checkout can be found from it), and what it ships: {@code bin/shardvault},
 * {@code lib/}, {@code conf/}. Commands run with this JVM's {@code JAVA_HOME}; their output goes to a log under
 * {@code logs}. Commands may run under a launcher ({@link #launchedBy}: {@code ip netns exec HOST}), as an
 * operator runs them on one host of several. Not thread-safe.
 */
public final class UnpackedRelease {
    /** Sized for two cores shared by a dozen JVMs, after bin/shardvault's own sizes (they win, as in ROLE.env). */
    public static final Map<String, String> TWO_CORE_JVM = Map.of("SHARDVAULT_JVM_OPTS",
            "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);
    private static final Pattern KEY_ID = Pattern.compile("(?m)^access key id:\\s+(\\S+)$");
    /** What init says when the catalog peer it asked lost or had no leader: an election, worth another try. */
    private static final Pattern ELECTION = Pattern.compile("no longer leads|no catalog leader is known");
    private static final Pattern SECRET = Pattern.compile("(?m)^secret key:\\s+(\\S+)$");

    private final Path home;
    private final Path logs;
    private final String version;
    private final List<String> launcher;

    private UnpackedRelease(Path home, Path logs, String version, List<String> launcher) {
        this.home = home;
        this.logs = logs;
        this.version = version;
        this.launcher = launcher;
    }

    /** An S3 access key made with {@code bin/shardvault admin keys create}. */
    public record AccessKey(String id, String secret) {
        @Override
        public String toString() {
            return "AccessKey[" + id + "]";
        }
    }

    /**
     * Unpacks {@code dist/target/shardvault-VERSION.tar.gz} into {@code dir} with tar, as an operator would.
     *
     * @throws IllegalStateException when the tarball is missing: the reactor must package dist before it/
     */
    public static UnpackedRelease unpack(Path dir) throws IOException, InterruptedException, TimeoutException {
        String root = System.getProperty(ProcessCluster.ROOT_PROPERTY);
        String version = System.getProperty(ProcessCluster.VERSION_PROPERTY);
        if (root == null || version == null) {
            throw new IllegalStateException("run this test through Maven (it/pom.xml sets " + ProcessCluster.ROOT_PROPERTY
                    + " and " + ProcessCluster.VERSION_PROPERTY + ")");
        }
        Path tarball = Path.of(root, "dist", "target", "shardvault-" + version + ".tar.gz");
        if (!Files.isRegularFile(tarball)) {
            throw new IllegalStateException("the release tarball " + tarball + " is missing: build it with the reactor,"
                    + " e.g. ./mvnw -pl it -am verify (dist's package phase makes it)");
        }
        Path logs = dir.resolve("test-logs");
        ServiceProcess tar = ServiceProcess.exec("tar", List.of("tar", "-xzf", tarball.toString(), "-C", dir.toString()),
                Map.of(), logs.resolve("tar.log"));
        int exit = tar.awaitExit(COMMAND_TIMEOUT);
        if (exit != 0) {
            throw new IllegalStateException("tar -xzf " + tarball + " exited " + exit + ": " + tar.output());
        }
        return new UnpackedRelease(dir.resolve("shardvault-" + version), logs, version, List.of());
    }

    /** This release with its commands run after {@code launcher} (such as {@code ip netns exec NS}). */
    public UnpackedRelease launchedBy(List<String> launcher) {
        return new UnpackedRelease(home, logs, version, List.copyOf(launcher));
    }

    public Path home() {
        return home;
    }

    public String version() {
        return version;
    }

    /** The fat JAR of {@code service} in {@code lib/}. */
    Path jar(String service) {
        return home.resolve("lib").resolve("shardvault-" + service + "-" + version + "-all.jar");
    }

    /** Every file under {@code lib/}. */
    List<Path> libFiles() throws IOException {
        try (Stream<Path> files = Files.list(home.resolve("lib"))) {
            return files.sorted(Comparator.naturalOrder()).toList();
        }
    }

    /** A sample of {@code conf/}. */
    public Path sampleConf(String name) {
        return home.resolve("conf").resolve(name);
    }

    /**
     * Starts {@code bin/shardvault ARGS} in the background, {@code env} added to this JVM's environment; its output
     * goes to {@code test-logs/NAME.log} (runs of one name share it, each after the last).
     */
    public ServiceProcess start(String name, Map<String, String> env, String... args) throws IOException {
        List<String> command = new ArrayList<>(launcher);
        command.add(home.resolve("bin").resolve("shardvault").toString());
        command.addAll(List.of(args));
        return ServiceProcess.exec(name, command, withJavaHome(env), log(name));
    }

    /** Runs {@code bin/shardvault ARGS} to its end; returns what it printed after its status was checked. */
    public String script(String... args) throws IOException, InterruptedException, TimeoutException {
        return finish(start("shardvault " + args[0], Map.of(), args));
    }

    /**
     * The certificates of docs/DEPLOYMENT.md's step 1 with {@code bin/shardvault certs}: a cluster CA in
     * {@code dir}, then one certificate per entry of {@code sans} (name to its comma-separated SANs).
     */
    public void certificates(Path dir, Map<String, String> sans) throws IOException, InterruptedException,
            TimeoutException {
        script("certs", "ca", "--dir", dir.toString());
        for (Map.Entry<String, String> e : sans.entrySet()) {
            script("certs", "issue", e.getKey(), "--dir", dir.toString(), "--san", e.getValue());
        }
    }

    /**
     * {@code bin/shardvault init --map}, again while the coordinator's JMX does not serve yet (it serves once its
     * catalog answers: exit status 3 until then) and while the catalog's leadership changes under it (status 1
     * with {@link #ELECTION}'s words: a 3-peer group's first terms may be short on a busy machine), for at most
     * {@code timeout}; returns what init printed.
     */
    public String initMap(Path map, String jmx, Path passwordFile, ServiceProcess coordinator, Duration timeout)
            throws IOException, InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                return script("init", "--map", map.toString(), "--jmx", jmx, "--password-file", passwordFile.toString());
            } catch (IllegalStateException e) {
                boolean retry = e.getMessage().contains("exited 3") || ELECTION.matcher(e.getMessage()).find();
                if (!coordinator.isAlive() || System.nanoTime() > deadline || !retry) {
                    throw e;
                }
                Thread.sleep(500);
            }
        }
    }

    /** {@code bin/shardvault admin keys create --account ACCOUNT} through the coordinator JMX at {@code jmx}. */
    public AccessKey createKey(String account, String jmx, Path passwordFile) throws IOException,
            InterruptedException, TimeoutException {
        ServiceProcess cli = start("shardvault admin", Map.of(), "admin", "keys", "create", "--account", account,
                "--jmx", jmx, "--password-file", passwordFile.toString());
        String created = finish(cli);
        AccessKey key = new AccessKey(group(KEY_ID, created), group(SECRET, created));
        // The CLI prints a new key's secret once, by design; the test's log of that output keeps no copy of it.
        Path log = cli.log();
        Files.writeString(log, Files.readString(log, StandardCharsets.ISO_8859_1).replace(key.secret(), "(redacted)"),
                StandardCharsets.ISO_8859_1);
        return key;
    }

    /** Runs {@code java -jar lib/JAR ARGS} to its end; returns what it printed after its status was checked. */
    String javaJar(String service, String... args) throws IOException, InterruptedException, TimeoutException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar(service).toString()));
        command.addAll(List.of(args));
        String name = "java -jar " + service;
        return finish(ServiceProcess.exec(name, command, Map.of(), log(name)));
    }

    private static String group(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        if (!m.find()) {
            throw new IllegalStateException("no " + pattern + " in what the admin CLI printed");
        }
        return m.group(1);
    }

    private Path log(String name) {
        return logs.resolve(name.replaceAll("[^A-Za-z0-9.]+", "-") + ".log");
    }

    private static String finish(ServiceProcess p) throws IOException, InterruptedException, TimeoutException {
        int exit;
        try {
            exit = p.awaitExit(COMMAND_TIMEOUT);
        } catch (TimeoutException e) {
            p.kill();
            throw e;
        }
        if (exit != 0) {
            throw new IllegalStateException(p.name() + " exited " + exit + "; " + p.tail());
        }
        // The first line is ServiceProcess's header (the command line).
        String out = p.output();
        int header = out.indexOf('\n');
        return header < 0 ? "" : out.substring(header + 1);
    }

    private static Map<String, String> withJavaHome(Map<String, String> env) {
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put("JAVA_HOME", System.getProperty("java.home"));
        return all;
    }
}
