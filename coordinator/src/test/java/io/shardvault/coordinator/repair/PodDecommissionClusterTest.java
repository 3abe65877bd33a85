package io.shardvault.coordinator.repair;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.ShardId;
import io.shardvault.coordinator.catalog.PodRebuildJob;
import io.shardvault.coordinator.data.StoredFile;
import io.shardvault.coordinator.store.CatalogVaultMap;
import io.shardvault.coordinator.testing.HealingCluster;
import io.shardvault.coordinator.testing.MiniCluster;
import io.shardvault.pod.api.PodClient;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pod decommission end to end (issue #20, section 3) over real pods (a 16+4 MiniCluster plus a
 * replacement pod on a new address), a real one-peer Ratis catalog and the rebuild worker, with the
 * test's coordinator (its data path and workers) following the catalog's vault map as {@code Coordinator}
 * does: the pod's shards are copied onto its replacement while the pod serves reads and writes, decoding
 * only what it cannot give; the job's DONE switches the map on the running coordinator (no restart), so
 * new writes go to the replacement; the catch-up rebuild fills in what was written meanwhile, and with the
 * old pod and four others stopped every object reads back exact (only the replacement's shards make that
 * possible). A decommission stopped halfway resumes from its checkpoint.
 */
@Timeout(300)
class PodDecommissionClusterTest {
    @TempDir
    Path dir;

    private HealingCluster h;
    private MiniCluster cluster;
    private CatalogVaultMap vaults;

    @BeforeEach
    void start() throws Exception {
        h = HealingCluster.start(dir, "decommissions");
        cluster = h.cluster();
        vaults = h.followCatalogMap();
    }

    @AfterEach
    void stop() {
        if (h != null) {
            h.close();
        }
    }

    @Test
    void aPodIsCopiedOntoItsReplacementWhileItServesAndItsEndSwitchesTheRunningCoordinatorToTheReplacement()
            throws Exception {
        int retiring = 7;
        int before = h.writeMixedLoad();
        InetSocketAddress onto = cluster.startReplacement(retiring);

        PodRebuildMetrics metrics = new PodRebuildMetrics(new SimpleMeterRegistry());
        PodRebuildWorker w = h.rebuildWorker(4L << 20, 3, metrics);
        PodRebuildJob job = w.decommission(MiniCluster.VAULT_ID, retiring, onto).join();
        assertThat(job.copies()).isTrue();
        assertThat(job.sourcePort()).isEqualTo(cluster.podAddress(retiring).getPort());
        assertThat(job.targetPort()).isEqualTo(onto.getPort());
        // The old pod serves on: writes during the copy take their shard on it.
        for (int i = 0; i < 4; i++) {
            assertThat(h.write("during-" + i, h.bytes(300_000 + 1_000 * i)).missingShards()).isEmpty();
        }
        PodRebuildJob done = h.awaitDone(job);
        assertThat(done.failures()).isZero();
        assertThat(done.shardsRebuilt()).isGreaterThanOrEqualTo(before - 1);
        // Every shard was copied from the old pod: not one decoded from the others.
        assertThat(metrics.shardsDecoded.count()).isZero();
        assertThat(metrics.shardsCopied.count()).isEqualTo(metrics.shardsMissing.count()).isEqualTo(done.shardsRebuilt());
        assertThat(metrics.bytesRebuilt.count()).isEqualTo(done.bytesRebuilt()).isPositive();
        InetSocketAddress old = cluster.podAddress(retiring);
        awaitSwitch(retiring, onto);
        // The replacement takes the slot's assignment (so it may take buffered writes, recoverable from the stash).
        PodClient pods = h.pods();
        HealingCluster.awaitTrue("the replacement's assignment", () -> cluster.assignments().expected(onto) != null
                && pods.stats(onto).join().assignment() == cluster.assignments().expected(onto).fingerprint());
        // No restart: the same data path now writes shard 7 of a new file to the replacement, not the old pod.
        StoredFile after = h.write("after-switch", h.bytes(700_000));
        assertThat(after.missingShards()).isEmpty();
        ShardId shard = new ShardId(after.vaultId(), after.fileId(), retiring);
        assertThat(cluster.replacementShardFile(retiring, shard)).exists();
        assertThat(cluster.shardFile(retiring, shard)).as("on the old pod " + old).doesNotExist();
        assertReadBackFromOldPodDown(retiring, onto);
    }

    @Test
    void aShardTheOldPodHoldsCorruptIsDecodedInsteadAndTheCopyIsExact() throws Exception {
        int retiring = 5;
        StoredFile rotten = h.write("rotten", h.bytes(3 * 1024 * 1024 + 99));
        h.write("fine", h.bytes(2 * 1024 * 1024 + 7));
        h.write("small", h.bytes(70_000));
        HealingCluster.flipByte(cluster.shardFile(retiring, new ShardId(rotten.vaultId(), rotten.fileId(), retiring)),
                32 + 28 + 100);
        InetSocketAddress onto = cluster.startReplacement(retiring);

        PodRebuildMetrics metrics = new PodRebuildMetrics(new SimpleMeterRegistry());
        PodRebuildWorker w = h.rebuildWorker(1L << 30, 100, metrics);
        PodRebuildJob done = h.awaitDone(w.decommission(MiniCluster.VAULT_ID, retiring, onto).join());
        assertThat(done.failures()).isZero();
        assertThat(done.shardsRebuilt()).isEqualTo(3);
        assertThat(metrics.shardsDecoded.count()).as("decoded").isEqualTo(1.0);
        assertThat(metrics.shardsCopied.count()).as("copied").isEqualTo(2.0);
        assertReadBackFromOldPodDown(retiring, onto);
    }

    @Test
    void aDecommissionStoppedHalfwayResumesFromItsCheckpointAndRedoesAHalfCopiedShard() throws Exception {
        int retiring = 4;
        InetSocketAddress onto = cluster.startReplacement(retiring);
        HalfwayResume.Resumed r = HalfwayResume.stopHalfwayAndResume(h, 8, retiring, onto,
                w -> w.decommission(MiniCluster.VAULT_ID, retiring, onto).join());
        assertThat(r.done().failures()).isZero();
        // ... and copied (never decoded) what was missing, the half-copied shard included.
        assertThat(r.metrics().tailChecks.count()).isPositive();
        assertThat(r.metrics().shardsDecoded.count()).isZero();
        assertThat(r.metrics().shardsCopied.count()).isPositive();
        assertReadBackFromOldPodDown(retiring, onto);
    }

    @Test
    void aDeadPodIsMovedToANewAddressByADecommissionThatDecodesEveryShard() throws Exception {
        int dead = 11;
        int files = h.writeMixedLoad();
        h.stopPods(dead);
        InetSocketAddress onto = cluster.startReplacement(dead);

        PodRebuildMetrics metrics = new PodRebuildMetrics(new SimpleMeterRegistry());
        PodRebuildWorker w = h.rebuildWorker(1L << 30, 100, metrics);
        PodRebuildJob done = h.awaitDone(w.decommission(MiniCluster.VAULT_ID, dead, onto).join());
        assertThat(done.failures()).isZero();
        assertThat(done.filesDone()).isEqualTo(files);
        assertThat(metrics.shardsCopied.count()).as("copied").isZero();
        assertThat(metrics.shardsDecoded.count()).as("decoded").isEqualTo(done.shardsRebuilt()).isPositive();
        assertReadBackFromOldPodDown(dead, onto);
    }

    /**
     * A dead pod's stashed shards that never reached its disk (here: written while it was down, so their
     * stash copies are their only copies, as a buffered shard's are when its pod dies unflushed) are decoded
     * onto the replacement, and only then lose their stash copies: no pod would ever purge them.
     */
    @Test
    void aDeadPodsStashCopiesGoOnceItsReplacementHoldsTheirShards() throws Exception {
        int dead = 13;
        h.writeMixedLoad();
        h.stopPods(dead);
        Set<Long> fileIds = new HashSet<>();
        for (int i = 0; i < 5; i++) {
            StoredFile f = h.write("stashed-" + i, h.bytes(20_000 + 9_000 * i));
            assertThat(f.stashed()).as("stashed-" + i).isTrue();
            assertThat(f.missingShards()).as("stashed-" + i).containsExactly(dead);
            fileIds.add(f.fileId());
        }
        HealingCluster.awaitTrue("the running pods' purges",
                () -> h.stashEntriesPerSlot(fileIds).keySet().equals(Set.of(dead)));
        InetSocketAddress onto = cluster.startReplacement(dead);

        PodRebuildWorker w = h.rebuildWorker(1L << 30, 100, new PodRebuildMetrics(new SimpleMeterRegistry()));
        PodRebuildJob done = h.awaitDone(w.decommission(MiniCluster.VAULT_ID, dead, onto).join());
        assertThat(done.failures()).isZero();
        assertThat(h.stashEntriesPerSlot(fileIds)).as("stash entries per slot after the decommission").isEmpty();
        assertReadBackFromOldPodDown(dead, onto);
    }

    /**
     * A lost host: its four pods are decommissioned one command after the other, within the gather delay,
     * and the four jobs run in one walk that decodes the four shards of each file from one read of it
     * (each file walked once, not four times); then the four catch-ups likewise, and every object reads
     * back with the four old pods and four others down, which only the four replacements make possible.
     */
    @Test
    void theFourPodsOfALostHostAreDecodedInOneWalk() throws Exception {
        int[] host = {4, 5, 6, 7};
        int files = h.writeMixedLoad();
        h.stopPods(host);
        PodRebuildMetrics metrics = new PodRebuildMetrics(new SimpleMeterRegistry());
        PodRebuildWorker w = h.rebuildWorker(1L << 30, 100, Duration.ofSeconds(2), metrics);
        List<PodRebuildJob> jobs = new ArrayList<>();
        List<InetSocketAddress> replacements = new ArrayList<>();
        for (int pod : host) {
            InetSocketAddress onto = cluster.startReplacement(pod);
            replacements.add(onto);
            jobs.add(w.decommission(MiniCluster.VAULT_ID, pod, onto).join());
        }
        for (PodRebuildJob job : jobs) {
            PodRebuildJob done = h.awaitDone(job);
            assertThat(done.failures()).isZero();
            assertThat(done.filesDone()).isEqualTo(files);
        }
        assertThat(metrics.filesWalked.count()).as("files walked: once each for the four jobs").isEqualTo(files);
        assertThat(metrics.shardsDecoded.count()).as("decoded").isEqualTo(4.0 * (files - 1)); // the empty one has none
        assertThat(metrics.shardsCopied.count()).as("copied").isZero();
        for (int i = 0; i < host.length; i++) {
            int pod = host[i];
            InetSocketAddress onto = replacements.get(i);
            awaitSwitch(pod, onto);
            HealingCluster.awaitTrue("the catch-up rebuild of pod " + pod + ", DONE", () -> {
                PodRebuildJob row = catchUpRow(pod);
                return row != null && !row.copies() && row.state() == PodRebuildJob.State.DONE;
            });
            assertThat(catchUpRow(pod).failures()).isZero();
        }
        h.stopPods(0, 1, 2, 3);
        h.stopStash();
        h.assertReadBack();
    }

    /** The catalog's row of pod {@code shardIndex}'s rebuild jobs, or null. */
    private PodRebuildJob catchUpRow(int shardIndex) {
        return h.catalog().listPodRebuilds().join().stream()
                .filter(j -> j.vaultId() == MiniCluster.VAULT_ID && j.shardIndex() == shardIndex)
                .findFirst().orElse(null);
    }

    /** Waits (bounded) until the running coordinator's map gives pod {@code retiring} the replacement's address. */
    private void awaitSwitch(int retiring, InetSocketAddress onto) throws InterruptedException {
        HealingCluster.awaitTrue("the map's switch to " + onto, () -> vaults.current().pod(retiring).equals(onto));
    }

    /**
     * What follows a decommission's DONE by itself, on the same running coordinator: the map switches to the
     * replacement; after the catch-up delay the worker starts the catch-up rebuild onto it (no admin call);
     * once that is DONE the old pod and four others (pods 0, 2, 16 and 17) stop and every object reads back.
     */
    private void assertReadBackFromOldPodDown(int retiring, InetSocketAddress onto)
            throws Exception {
        awaitSwitch(retiring, onto);
        HealingCluster.awaitTrue("the catch-up rebuild of pod " + retiring + ", DONE", () -> {
            PodRebuildJob row = catchUpRow(retiring);
            return row != null && !row.copies() && row.state() == PodRebuildJob.State.DONE;
        });
        PodRebuildJob done = catchUpRow(retiring);
        assertThat(done.failures()).isZero();
        assertThat(done.copies()).isFalse();
        assertThat(done.targetPort()).isEqualTo(onto.getPort());
        assertThat(done.filesDone()).isEqualTo(h.objects().size());

        h.stopPods(retiring, 0, 2, 16, 17);
        h.stopStash();
        h.assertReadBack();
    }
}
