package io.shardvault.it.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.it.chaos.Nemesis.PartitionTarget.Role;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The nemesis's schedules: a seed's stays what it was where a new fault kind cannot be drawn. */
class NemesisTest {
    /** ChaosIT's shape on loopback: 6 pod processes, 2 stash servers, 3 coordinators, pod 5 delayable. */
    private static final Nemesis.Shape LOOPBACK = new Nemesis.Shape(6, 2, 3, List.of(5), List.of(), false);

    /** Seed 23's schedule on CI's shape as it was before partitions (commit 48aa96b's Nemesis printed it). */
    @Test
    void aLoopbackClusterKeepsItsSchedules() {
        assertThat(schedule(23, LOOPBACK)).containsExactly(
                "at 2825 ms for 1723 ms: slow_pod 5 + power_loss_pod 1",
                "at 7846 ms for 3874 ms: kill_stash 0",
                "at 16363 ms for 4378 ms: kill_coordinator follower + kill_stash 1",
                "at 23822 ms for 3433 ms: kill_pod 3 + power_loss_pod 4",
                "at 29834 ms for 2953 ms: kill_pod 4",
                "at 35748 ms for 1036 ms: power_loss_pod 5",
                "at 39643 ms for 2469 ms: slow_pod 5",
                "at 46512 ms for 3276 ms: kill_stash 1",
                "at 52952 ms for 2223 ms: slow_pod 5",
                "at 57647 ms for 1553 ms: kill_pod 5");
        // A soak's shape as root, with a fillable tome: seed 2312's, as before partitions too.
        assertThat(schedule(2312, new Nemesis.Shape(6, 2, 3, List.of(5), List.of(4), false))).containsExactly(
                "at 2264 ms for 1307 ms: slow_pod 5 + kill_coordinator follower",
                "at 6350 ms for 2849 ms: full_tome 4",
                "at 13765 ms for 3473 ms: kill_pod 0 + slow_pod 5",
                "at 19549 ms for 2198 ms: power_loss_pod 1 + kill_pod 3",
                "at 24475 ms for 4706 ms: kill_coordinator leader + kill_pod 2",
                "at 33959 ms for 1799 ms: kill_coordinator follower",
                "at 38415 ms for 2403 ms: kill_pod 2",
                "at 44299 ms for 1335 ms: kill_coordinator leader",
                "at 48264 ms for 3274 ms: kill_pod 4",
                "at 54554 ms for 1815 ms: power_loss_pod 3 + kill_pod 5");
    }

    @Test
    void aClusterOnATestNetworkHasEveryHostCutOff() {
        Nemesis.Shape shape = new Nemesis.Shape(6, 2, 3, List.of(5), List.of(), true);
        Set<String> cut = new HashSet<>();
        LongStream.range(0, 20).forEach(seed -> Nemesis.schedule(seed, Duration.ofMinutes(5), shape).stream()
                .flatMap(step -> step.faults().stream()).filter(f -> f.kind() == Nemesis.Kind.PARTITION)
                .forEach(f -> cut.add(f.partitionTarget().toString())));
        assertThat(cut).contains("pod process 0", "pod process 5", "stash 0", "stash 1", "leader", "follower")
                .hasSize(10);
    }

    @Test
    void aStepWithAPartitionOutlastsTheClientsCallTimeout() {
        Nemesis.Shape shape = new Nemesis.Shape(6, 2, 3, List.of(5), List.of(), true);
        List<Nemesis.Step> steps = LongStream.range(0, 20)
                .mapToObj(seed -> Nemesis.schedule(seed, Duration.ofMinutes(5), shape)).flatMap(List::stream).toList();
        assertThat(steps).filteredOn(NemesisTest::partitions).isNotEmpty()
                .allSatisfy(step -> assertThat(step.down()).isBetween(Duration.ofSeconds(11), Duration.ofSeconds(15)));
        assertThat(steps).filteredOn(step -> !partitions(step)).isNotEmpty()
                .allSatisfy(step -> assertThat(step.down()).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(5)));
    }

    private static boolean partitions(Nemesis.Step step) {
        return step.faults().stream().anyMatch(f -> f.kind() == Nemesis.Kind.PARTITION);
    }

    @Test
    void aPartitionsTargetNamesPodProcessesThenStashServersThenCoordinators() {
        Nemesis.Shape shape = new Nemesis.Shape(2, 2, 1, List.of(), List.of(), true);
        assertThat(Nemesis.PartitionTarget.of(1, shape)).isEqualTo(new Nemesis.PartitionTarget(Role.POD_PROCESS, 1));
        assertThat(Nemesis.PartitionTarget.of(2, shape)).isEqualTo(new Nemesis.PartitionTarget(Role.STASH, 0));
        assertThat(Nemesis.PartitionTarget.of(4, shape))
                .isEqualTo(new Nemesis.PartitionTarget(Role.COORDINATOR, Nemesis.LEADER));
    }

    private static List<String> schedule(long seed, Nemesis.Shape shape) {
        return Nemesis.schedule(seed, Duration.ofSeconds(60), shape).stream().map(Nemesis.Step::toString).toList();
    }
}
