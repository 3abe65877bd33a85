package io.shardvault.it.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scripted interop run (it/interop) against a real cluster: boto3 with its default checksum behaviour
 * ({@code boto3_interop.py}) and the AWS CLI ({@code awscli_interop.sh}, multipart through {@code aws s3 cp} of
 * a large file), both latest from PyPI, each a child process with a bounded run time.
 *
 * <p>The clients live in two venvs that {@code it/interop/install.sh} makes, under
 * {@code $SHARDVAULT_INTEROP_VENV} or {@code ~/.cache/shardvault/interop}. When they are missing the test is
 * skipped with a message, unless {@code SHARDVAULT_REQUIRE_INTEROP=true} (CI sets it): then it fails.
 */
@Timeout(value = 12, unit = TimeUnit.MINUTES)
class InteropIT {
    private static final Logger LOG = LoggerFactory.getLogger(InteropIT.class);
    private static final String ACCESS_KEY = "AKIDINTEROP0001";
    private static final String SECRET_KEY = "interop/secret/key/0123456789abcdef";
    private static final long SCRIPT_MINUTES = 5;

    @TempDir
    static Path dir;
    private static S3Cluster cluster;
    private static Path venvs;

    @BeforeAll
    static void start() throws IOException {
        venvs = venvs();
        cluster = S3Cluster.start(dir.resolve("cluster"), ACCESS_KEY, SECRET_KEY);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** The venvs' directory; aborts (skips) or fails, as configured, when the tools are not installed. */
    private static Path venvs() {
        String configured = System.getenv("SHARDVAULT_INTEROP_VENV");
        Path path = configured != null && !configured.isBlank() ? Path.of(configured)
                : Path.of(System.getProperty("user.home"), ".cache", "shardvault", "interop");
        boolean present = Files.isExecutable(path.resolve("boto3/bin/python"))
                && Files.isExecutable(path.resolve("awscli/bin/aws"));
        if (!present) {
            String message = "boto3 and the AWS CLI are not installed in " + path
                    + " (run it/interop/install.sh; .ci/run does)";
            if ("true".equalsIgnoreCase(System.getenv("SHARDVAULT_REQUIRE_INTEROP"))) {
                throw new IllegalStateException(message + " and SHARDVAULT_REQUIRE_INTEROP=true");
            }
            // Surefire shows a class-level abort only as "Tests run: 0": say why in the build log too.
            LOG.warn("interop skipped: {}", message);
            Assumptions.abort("interop skipped: " + message);
        }
        return path;
    }

    @Test
    void boto3WithDefaultChecksums() throws Exception {
        long seed = new Random().nextInt(1 << 30);
        LOG.info("boto3 interop seed {}", seed);
        run("boto3", Map.of("SEED", Long.toString(seed)), venvs.resolve("boto3/bin/python").toString(),
                script("boto3_interop.py").toString());
    }

    @Test
    void awsCli() throws Exception {
        Path work = Files.createDirectories(dir.resolve("awscli-work"));
        run("awscli", Map.of("AWS", venvs.resolve("awscli/bin/aws").toString(), "WORK", work.toString()),
                "bash", script("awscli_interop.sh").toString());
    }

    private static Path script(String name) {
        Path base = Path.of(System.getProperty("basedir", "."));
        return base.resolve("interop").resolve(name).toAbsolutePath();
    }

    /** Runs one script with the cluster's endpoint and key in its environment; its output goes to the log. */
    private static void run(String name, Map<String, String> env, String... command) throws Exception {
        Path out = dir.resolve(name + ".out");
        Path config = dir.resolve(name + "-aws-config");
        Files.writeString(config, "[default]\nregion = us-east-1\ns3 =\n    addressing_style = path\n");
        Path credentials = dir.resolve(name + "-aws-credentials");
        Files.writeString(credentials, "");
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
        Map<String, String> e = pb.environment();
        e.put("ENDPOINT", cluster.endpoint().toString());
        e.put("AWS_ACCESS_KEY_ID", ACCESS_KEY);
        e.put("AWS_SECRET_ACCESS_KEY", SECRET_KEY);
        e.put("AWS_DEFAULT_REGION", "us-east-1");
        e.put("AWS_CONFIG_FILE", config.toString());
        e.put("AWS_SHARED_CREDENTIALS_FILE", credentials.toString());
        e.put("AWS_EC2_METADATA_DISABLED", "true");
        e.remove("AWS_PROFILE");
        e.remove("AWS_SESSION_TOKEN");
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
