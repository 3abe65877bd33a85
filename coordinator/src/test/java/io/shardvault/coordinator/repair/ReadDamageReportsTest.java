package io.shardvault.coordinator.repair;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.config.Settings;
import io.shardvault.common.erasure.ErasureLayout;
import io.shardvault.common.testing.ConfigKeysConventions;
import io.shardvault.coordinator.data.StoredFile;
import io.shardvault.coordinator.data.VaultLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Read reports: one enqueue per file and shard in flight, at most {@code max} in flight, the rest counted. */
@Timeout(30)
class ReadDamageReportsTest {
    private record Sent(int vaultId, long fileId, List<Integer> shards, String reason, CompletableFuture<Void> reply) {
    }

    private final List<Sent> sent = new ArrayList<>();
    private final RepairMetrics metrics = new RepairMetrics(new SimpleMeterRegistry());

    private ReadDamageReports reports(int max) {
        return new ReadDamageReports((vaultId, fileId, shards, reason) -> {
            CompletableFuture<Void> reply = new CompletableFuture<>();
            sent.add(new Sent(vaultId, fileId, shards, reason, reply));
            return reply;
        }, max, metrics);
    }

    private static StoredFile file(long id) {
        return new StoredFile(1, id, 1000, new VaultLayout(new ErasureLayout(4, 2), 4096), List.of(), false);
    }

    @Test
    void aShardInFlightIsSentOnceAndAgainOnlyAfterItsReply() {
        ReadDamageReports r = reports(8);
        r.report(file(7), 2, ErrorCode.CORRUPT);
        r.report(file(7), 2, ErrorCode.CORRUPT);
        r.report(file(7), 3, ErrorCode.NOT_FOUND);
        assertThat(sent).extracting(Sent::fileId, Sent::shards, Sent::reason).containsExactly(
                org.assertj.core.groups.Tuple.tuple(7L, List.of(2), "read-corrupt"),
                org.assertj.core.groups.Tuple.tuple(7L, List.of(3), "read-missing"));
        assertThat(metrics.reportsDuplicate.count()).isEqualTo(1);
        assertThat(r.inFlight()).isEqualTo(2);

        sent.get(0).reply().complete(null);
        sent.get(1).reply().completeExceptionally(new IllegalStateException("catalog down"));
        assertThat(r.inFlight()).isZero();
        assertThat(metrics.reportsQueued.count()).isEqualTo(1);
        assertThat(metrics.reportsFailed.count()).isEqualTo(1);
        r.report(file(7), 2, ErrorCode.CORRUPT);
        assertThat(sent).hasSize(3);
    }

    @Test
    void beyondTheBoundReportsAreDroppedAndCountedNeverQueued() {
        ReadDamageReports r = reports(3);
        for (long id = 0; id < 10; id++) {
            r.report(file(id), 0, ErrorCode.NOT_FOUND);
        }
        assertThat(sent).hasSize(3);
        assertThat(r.inFlight()).isEqualTo(3);
        assertThat(metrics.reportsDropped.count()).isEqualTo(7);
        sent.get(0).reply().complete(null);
        r.report(file(42), 1, ErrorCode.CORRUPT);
        assertThat(sent).hasSize(4);
        assertThat(r.inFlight()).isEqualTo(3);
    }

    @Test
    void settingsFollowTheConventions() throws Exception {
        ConfigKeysConventions.assertWellFormed(RepairConfigKeys.class);
        RepairConfig c = RepairConfig.from(Settings.of(Map.of("repair.rate.bytesPerSecond", "10MiB",
                "repair.concurrency", "3")));
        assertThat(c.bytesPerSecond()).isEqualTo(10L << 20);
        assertThat(c.concurrency()).isEqualTo(3);
        assertThat(RepairConfig.defaults().enabled()).isTrue();
    }
}
