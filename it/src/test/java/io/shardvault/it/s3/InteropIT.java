package io.shardvault.it.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scripted interop run (it/interop) against a real cluster, five real clients with their default settings,
 * each a child process with a bounded run time and a bucket of its own:
 * <ul>
 *   <li>boto3 with its default checksum behaviour ({@code boto3_interop.py});
 *   <li>the AWS CLI ({@code awscli_interop.sh}, multipart through {@code aws s3 cp} of a large file);
 *   <li>s3cmd ({@code s3cmd_interop.sh}, a 17 MiB put over its 15 MiB multipart chunk);
 *   <li>rclone ({@code rclone_interop.sh}, a tree with a file over its 200 MiB upload cutoff synced both ways);
 *   <li>the AWS SDK for Go v2 ({@code go/}, built by install.sh to {@code go/s3interop}).
 * </ul>
 *
 * <p>The Python clients live in venvs, and the Go program beside them, that {@code it/interop/install.sh} makes
 * under {@code $SHARDVAULT_INTEROP_VENV} or {@code ~/.cache/shardvault/interop}; rclone is Debian's package, found
 * on PATH. A missing client skips its test with a message saying how to install it, unless
 * {@code SHARDVAULT_REQUIRE_INTEROP=true} (CI sets it): then the test fails.
 *
 * <p>Each client runs in an environment of its own making, not this JVM's: PATH, LANG, a fresh HOME (so no
 * user's config is read), the endpoint and keys, and what that client needs. Variables such as AWS_CA_BUNDLE
 * or AWS_PROFILE from the caller's environment would change what a client does (Debian's rclone fails on
 * AWS_CA_BUNDLE before it sends a request).
 */
@Timeout(value = 12, unit = TimeUnit.MINUTES)
class InteropIT {
    private static final Logger LOG = LoggerFactory.getLogger(InteropIT.class);
    private static final String ACCESS_KEY = "AKIDINTEROP0001";
    private static final String SECRET_KEY = "interop/secret/key/0123456789abcdef";
    private static final long SCRIPT_MINUTES = 5;
    private static final String INSTALL = "run it/interop/install.sh; .ci/run does";

    @TempDir
    static Path dir;
    private static S3Cluster cluster;
    private static Path venvs;

    @BeforeAll
    static void start() throws IOException {
        String configured = System.getenv("SHARDVAULT_INTEROP_VENV");
        venvs = configured != null && !configured.isBlank() ? Path.of(configured)
                : Path.of(System.getProperty("user.home"), ".cache", "shardvault", "interop");
        // With no client at all, skip (or fail) before starting a cluster for nothing.
        boolean any = Stream.of("boto3/bin/python", "awscli/bin/aws", "s3cmd/bin/s3cmd", "go/s3interop")
                .anyMatch(tool -> Files.isExecutable(venvs.resolve(tool))) || onPath("rclone").isPresent();
        if (!any) {
            missing("no interop client is installed: neither in " + venvs + " (" + INSTALL
                    + ") nor rclone on PATH (apt-get install rclone)");
        }
        cluster = S3Cluster.start(dir.resolve("cluster"), ACCESS_KEY, SECRET_KEY);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void boto3WithDefaultChecksums() throws Exception {
        Path python = installed(venvs.resolve("boto3/bin/python"), "boto3 is not installed in " + venvs, INSTALL);
        Map<String, String> env = awsSdkEnv("boto3");
        env.put("SEED", Long.toString(seed("boto3")));
        run("boto3", env, python.toString(), script("boto3_interop.py"));
    }

    @Test
    void awsCli() throws Exception {
        Path aws = installed(venvs.resolve("awscli/bin/aws"), "the AWS CLI is not installed in " + venvs, INSTALL);
        Map<String, String> env = awsSdkEnv("awscli");
        env.put("AWS", aws.toString());
        run("awscli", env, "bash", script("awscli_interop.sh"));
    }

    @Test
    void s3cmd() throws Exception {
        Path s3cmd = installed(venvs.resolve("s3cmd/bin/s3cmd"), "s3cmd is not installed in " + venvs, INSTALL);
        run("s3cmd", new HashMap<>(Map.of("S3CMD", s3cmd.toString())), "bash", script("s3cmd_interop.sh"));
    }

    @Test
    void rclone() throws Exception {
        Path rclone = installed(onPath("rclone").orElse(Path.of("rclone")), "rclone is not on PATH",
                "apt-get install rclone; .ci/run does");
        run("rclone", new HashMap<>(Map.of("RCLONE", rclone.toString())), "bash", script("rclone_interop.sh"));
    }

    @Test
    void awsSdkForGo() throws Exception {
        Path program = installed(venvs.resolve("go/s3interop"), "the AWS SDK for Go v2 program is not built in "
                + venvs, INSTALL + "; it needs Go");
        Map<String, String> env = awsSdkEnv("go");
        env.put("SEED", Long.toString(seed("go")));
        run("go", env, program.toString());
    }

    private static long seed(String name) {
        long seed = new Random().nextInt(1 << 30);
        LOG.info("{} interop seed {}", name, seed);
        return seed;
    }

    /** The tool when it is executable; else aborts (skips) the test, or fails it under SHARDVAULT_REQUIRE_INTEROP. */
    private static Path installed(Path tool, String what, String howToInstall) {
        if (!Files.isExecutable(tool)) {
            missing(what + " (" + howToInstall + ")");
        }
        return tool;
    }

    private static void missing(String message) {
        if ("true".equalsIgnoreCase(System.getenv("SHARDVAULT_REQUIRE_INTEROP"))) {
            throw new IllegalStateException(message + " and SHARDVAULT_REQUIRE_INTEROP=true");
        }
        // Surefire shows a class-level abort only as "Tests run: 0": say why in the build log too.
        LOG.warn("interop skipped: {}", message);
        Assumptions.abort("interop skipped: " + message);
    }

    private static Optional<Path> onPath(String command) {
        String path = System.getenv("PATH");
        return path == null ? Optional.empty() : Stream.of(path.split(File.pathSeparator))
                .filter(d -> !d.isEmpty())
                .map(d -> Path.of(d, command))
                .filter(Files::isExecutable)
                .findFirst();
    }

    private static String script(String name) {
        Path base = Path.of(System.getProperty("basedir", "."));
        return base.resolve("interop").resolve(name).toAbsolutePath().toString();
    }

    /** What the AWS SDKs (boto3, the CLI, Go's) read: the keys, a region, path style, no instance metadata. */
    private static Map<String, String> awsSdkEnv(String name) throws IOException {
        Path config = dir.resolve(name + "-aws-config");
        Files.writeString(config, "[default]\nregion = us-east-1\ns3 =\n    addressing_style = path\n");
        Path credentials = dir.resolve(name + "-aws-credentials");
        Files.writeString(credentials, "");
        Map<String, String> env = new HashMap<>();
        env.put("AWS_ACCESS_KEY_ID", ACCESS_KEY);
        env.put("AWS_SECRET_ACCESS_KEY", SECRET_KEY);
        env.put("AWS_DEFAULT_REGION", "us-east-1");
        env.put("AWS_CONFIG_FILE", config.toString());
        env.put("AWS_SHARED_CREDENTIALS_FILE", credentials.toString());
        env.put("AWS_EC2_METADATA_DISABLED", "true");
        return env;
    }

    /**
     * Runs one client in an environment made from scratch: PATH, LANG, HOME and WORK (fresh directories of its
     * own), ENDPOINT, ACCESS_KEY, SECRET_KEY, BUCKET ({@code <name>-bucket}) and {@code env}. Its output goes to
     * the log; it passes when it exits 0 within {@link #SCRIPT_MINUTES} having printed "NAME interop passed".
     */
    private static void run(String name, Map<String, String> env, String... command) throws Exception {
        Path out = dir.resolve(name + ".out");
        ProcessBuilder pb = new ProcessBuilder(List.of(command)).redirectErrorStream(true).redirectOutput(out.toFile());
        Map<String, String> e = pb.environment();
        e.clear();
        e.put("PATH", Optional.ofNullable(System.getenv("PATH")).orElse("/usr/local/bin:/usr/bin:/bin"));
        e.put("LANG", "C.UTF-8");
        e.put("HOME", Files.createDirectories(dir.resolve(name + "-home")).toString());
        e.put("WORK", Files.createDirectories(dir.resolve(name + "-work")).toString());
        e.put("ENDPOINT", cluster.endpoint().toString());
        e.put("ACCESS_KEY", ACCESS_KEY);
        e.put("SECRET_KEY", SECRET_KEY);
        e.put("BUCKET", name + "-bucket");
        e.putAll(env);
        Process p = pb.start();
        boolean done = p.waitFor(SCRIPT_MINUTES, TimeUnit.MINUTES);
        if (!done) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        String output = Files.readString(out, StandardCharsets.UTF_8);
        LOG.info("{} interop output:\n{}", name, output);
        assertThat(done).as("%s finished within %d minutes; output:%n%s", name, SCRIPT_MINUTES, output).isTrue();
        assertThat(p.exitValue()).as("%s exit status; output:%n%s", name, output).isZero();
        assertThat(output).contains(name + " interop passed");
    }
}
