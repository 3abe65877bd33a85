package io.shardvault.coordinator.repair;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.catalog.PodRebuildJob;
import io.shardvault.coordinator.testing.HealingCluster;
import io.shardvault.coordinator.testing.MiniCluster;
import java.net.InetSocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The stopped-halfway proof that the pod rebuild and the decommission share. */
final class HalfwayResume {
    private static final Logger LOG = LoggerFactory.getLogger(HalfwayResume.class);

    private HalfwayResume() {
    }

    /** Starts the job under test on a worker. */
    @FunctionalInterface
    interface JobStart {
        PodRebuildJob on(PodRebuildWorker worker) throws Exception;
    }

    /** A job stopped after a checkpoint and resumed: the row it stopped at, the resumed run's worker and meters. */
    record Resumed(PodRebuildJob stoppedAt, PodRebuildJob done, PodRebuildWorker worker, PodRebuildMetrics metrics) {
    }

    /**
     * The worst moment for a job, and its resumption: {@code files} objects of three stripes each (a shard
     * that can be half written) are written, {@code start} starts the job on a slow worker (about three files
     * a second, checkpointed every two), which is stopped as a crash would stop it once a checkpoint is past
     * four files; the next file's shard {@code shard} on {@code target} is then left half written, as the
     * stopped run had begun it; a second worker resumes the job until DONE.
     */
    static Resumed stopHalfwayAndResume(HealingCluster h, int files, int shard, InetSocketAddress target,
                                         JobStart start) throws Exception {
        for (int i = 0; i < files; i++) {
            h.write("file-" + i, h.bytes(9 * 1024 * 1024 + 101 * i));
        }
        PodRebuildMetrics first = new PodRebuildMetrics(new SimpleMeterRegistry());
        PodRebuildWorker w1 = h.rebuildWorker(2L << 20, 2, first);
        PodRebuildJob job = start.on(w1);
        HealingCluster.awaitTrue("a checkpoint past four files", () -> h.rebuildRow(job).filesDone() >= 4);
        w1.close();
        PodRebuildJob stoppedAt = h.rebuildRow(job);
        LOG.info("stopped at {} files done (checkpointed), {} walked", stoppedAt.filesDone(), first.filesWalked.count());
        assertThat(stoppedAt.state()).isEqualTo(PodRebuildJob.State.RUNNING);
        assertThat(stoppedAt.filesDone()).isLessThan(files);

        FileRef next = h.catalog().listFiles(MiniCluster.VAULT_ID, stoppedAt.position(), 1).join().get(0);
        h.halfWrite(target, shard, next);

        PodRebuildMetrics second = new PodRebuildMetrics(new SimpleMeterRegistry());
        PodRebuildWorker w2 = h.rebuildWorker(8L << 20, 2, second);
        PodRebuildJob done = h.awaitDone(job);
        assertThat(done.filesDone()).isEqualTo(files);
        // The second run walked only what the checkpoint had not covered, checking its first files' tails.
        assertThat((long) second.filesWalked.count()).isEqualTo(files - stoppedAt.filesDone());
        return new Resumed(stoppedAt, done, w2, second);
    }
}
