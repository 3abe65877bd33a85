package io.shardvault.pod;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.common.testing.AdminScrape;
import io.shardvault.common.testing.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real program in a child JVM, logging with the shipped logback.xml: it prints its admin
 * address, serves metrics and health there, and logs one key=value line per event.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PodMainAdminTest {
    @TempDir
    Path dir;

    @Test
    void printsTheAdminAddressServesMetricsAndHealthAndLogsKeyValueLines() throws Exception {
        // One logback.xml for every service, shipped in common.
        Path shippedLogback = Path.of("../common/src/main/resources/logback.xml").toAbsolutePath();
        ChildJvm child = ChildJvm.builder(PodMain.class).name("pod")
                .jvmArgs("-Xmx256m", "-Dlogback.configurationFile=" + shippedLogback)
                .args("--set", "admin.bind=127.0.0.1:0", "--set", "pod.name=solo", "--set", "pod.bind=127.0.0.1:0",
                        "--set", "pod.stateDir=" + dir.resolve("state"), "--set", "pod.tomes=" + dir.resolve("t0"))
                .start();
        try (child) {
            AdminScrape admin = new AdminScrape(child.awaitLine("admin listening on ", Duration.ofSeconds(60)));
            child.awaitLine("pod solo listening ", Duration.ofSeconds(60));

            assertThat(admin.get("/health/ready").statusCode()).isEqualTo(200);
            assertThat(admin.metrics().find("shardvault_pod_unflushed_bytes", "pod", "solo", "service", "pod"))
                    .hasSize(1);
        }
        List<String> output = child.output();
        assertThat(output).anySatisfy(line -> assertThat(line)
                .matches("\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z level=INFO thread=\\S+ logger=AdminServer msg=\"admin serving .*\""));
        assertThat(output).noneMatch(line -> line.startsWith("\tat ") || line.contains("|-WARN")
                || line.contains("|-ERROR"));
    }
}
