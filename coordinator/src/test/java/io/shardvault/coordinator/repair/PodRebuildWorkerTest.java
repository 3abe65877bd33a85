package io.shardvault.coordinator.repair;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.common.ErrorCode;
import io.shardvault.common.config.Settings;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.common.testing.ConfigKeysConventions;
import io.shardvault.coordinator.catalog.PodRebuildJob;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** The pod rebuild's settings and its progress arithmetic (rate and time left since the job started). */
class PodRebuildWorkerTest {
    private static final Instant T0 = Instant.parse("2026-11-01T10:00:00Z");

    @Test
    void settingsFollowTheConventions() throws Exception {
        ConfigKeysConventions.assertWellFormed(PodRebuildConfigKeys.class);
        PodRebuildConfig c = PodRebuildConfig.from(Settings.of(Map.of("repair.rebuild.bytesPerSecond", "50MiB",
                "repair.rebuild.checkpoint.files", "20")));
        assertThat(c.bytesPerSecond()).isEqualTo(50L << 20);
        assertThat(c.checkpointFiles()).isEqualTo(20);
        assertThat(PodRebuildConfig.defaults().checkpointInterval()).isEqualTo(Duration.ofSeconds(10));
    }

    /** Only a source that gave no answer pauses a decommission's copies; one that answered with an error does not. */
    @Test
    void aCopyPausesForASilentSourceOnly() {
        assertThat(PodRebuild.unanswered(new IOException("read", new RpcException(ErrorCode.UNREACHABLE, "refused"))))
                .isTrue();
        assertThat(PodRebuild.unanswered(new IOException("read", new RpcException(ErrorCode.TIMEOUT, "late")))).isTrue();
        assertThat(PodRebuild.unanswered(new IOException("read: no answer", new TimeoutException()))).isTrue();
        assertThat(PodRebuild.unanswered(new IOException("read", new RpcException(ErrorCode.CORRUPT, "crc")))).isFalse();
        assertThat(PodRebuild.unanswered(new IOException("read gave 10 bytes, not 20"))).isFalse();
    }

    @Test
    void progressGivesTheRateAndTheTimeLeftSinceTheJobStarted() {
        PodRebuildJob job = job(PodRebuildJob.State.RUNNING, 250, 1000, 500L << 20);
        PodRebuildWorker.Progress p = PodRebuildWorker.progress(job, true, T0.plusSeconds(100));
        assertThat(p.filesPerSecond()).isEqualTo(2.5);
        assertThat(p.bytesPerSecond()).isEqualTo(5L << 20);
        assertThat(p.etaSeconds()).isEqualTo(300);

        assertThat(PodRebuildWorker.progress(job(PodRebuildJob.State.RUNNING, 0, 1000, 0), false, T0.plusSeconds(5))
                .etaSeconds()).as("nothing done yet: unknown").isEqualTo(-1);
        // The total is an estimate taken at the start: more files than that leave no negative time.
        assertThat(PodRebuildWorker.progress(job(PodRebuildJob.State.RUNNING, 1200, 1000, 0), false,
                T0.plusSeconds(60)).etaSeconds()).isZero();
        assertThat(PodRebuildWorker.progress(job(PodRebuildJob.State.DONE, 1000, 1000, 0), false, T0.plusSeconds(60))
                .etaSeconds()).isZero();
    }

    private static PodRebuildJob job(PodRebuildJob.State state, long filesDone, long total, long bytes) {
        return new PodRebuildJob(1, 3, 77, "127.0.0.1", 7003, "", 0, false, state, filesDone, filesDone, filesDone, bytes, 0,
                total, T0, T0);
    }
}
