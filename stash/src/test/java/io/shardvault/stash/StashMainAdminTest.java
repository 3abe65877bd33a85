package io.shardvault.stash;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.common.testing.AdminScrape;
import io.shardvault.common.testing.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The real program in a child JVM: it prints its admin address and serves metrics and health there. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StashMainAdminTest {
    @TempDir
    Path dir;

    @Test
    void printsTheAdminAddressAndServesMetricsAndHealthThere() throws Exception {
        ChildJvm child = ChildJvm.builder(StashMain.class).name("stash").jvmArgs("-Xmx256m")
                .args("--bind", "127.0.0.1:0", "--data", dir.resolve("stash").toString(),
                        "--set", "admin.bind=127.0.0.1:0")
                .start();
        try (child) {
            AdminScrape admin = new AdminScrape(child.awaitLine("admin listening on ", Duration.ofSeconds(60)));
            child.awaitLine("stash listening on ", Duration.ofSeconds(60));

            assertThat(admin.get("/health/ready").statusCode()).isEqualTo(200);
            assertThat(admin.metrics().sum("shardvault_stash_entries", "service", "stash")).contains(0.0);
        }
        assertThat(child.exitValue()).as("exit after SIGTERM").isIn(0, 143);
    }
}
