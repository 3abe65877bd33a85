package io.shardvault.it.chaos;

import io.shardvault.it.process.ProcessCluster;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Seeded random faults on a {@link ProcessCluster}, alone and in pairs: the schedule ({@link #schedule}) is a
 * function of the seed and the cluster's shape only, so {@code -Dchaos.seed=N} replays it (the clients'
 * timing, and so the history, differs from run to run). Each step waits for its time, injects its faults,
 * leaves them for their down time, then heals them (restarts what it killed) before the next step; {@link
 * #run} returns with every fault healed.
 *
 * <p>Runs on the thread that drives the cluster (ProcessCluster is not thread-safe); not thread-safe itself.
 */
public final class Nemesis {
    private static final Logger LOG = LoggerFactory.getLogger(Nemesis.class);

    /** What a fault does to its target. */
    public enum Kind {
        /** SIGKILL of a pod process, restarted after the down time. */
        KILL_POD,
        /** SIGKILL of a pod process and the loss of its shard files written in the last {@link #POWER_LOSS_WINDOW}. */
        POWER_LOSS_POD,
        /** SIGKILL of a stash server, restarted after the down time. */
        KILL_STASH,
        /**
         * SIGKILL of a coordinator, restarted after the down time: the catalog's leader ({@link #LEADER}) or a
         * follower ({@link #FOLLOWER}), which one asked of the cluster when the step starts.
         */
        KILL_COORDINATOR,
        /**
         * Every request a coordinator sends one of the cluster's delayable pods waits {@link #SLOW_POD_DELAY} in
         * its proxy for the down time. Last, and drawn only where a pod is delayable: the schedules of a cluster
         * without one stay what they were before it.
         */
        SLOW_POD,
        /**
         * One of the cluster's fillable tomes is filled (it holds what it holds and takes no more) for the down
         * time, then grown back. After {@link #SLOW_POD} and drawn only where a tome is fillable (as root), so
         * the schedules of clusters without one stay what they were before it.
         */
        FULL_TOME,
        /**
         * A host's link down for the down time, its processes running on: a pod process's, a stash server's or a
         * coordinator's (the catalog's leader or a follower, asked of the cluster when the step starts, as for
         * {@link #KILL_COORDINATOR}); see {@link PartitionTarget}. Last, and drawn only where the cluster is on a
         * test network ({@link ProcessCluster#partitionable()}), so the schedules of loopback clusters stay what
         * they were before it.
         */
        PARTITION
    }

    /**
     * A slow pod's delay per request: the write path's default straggler grace, so that a write with its quorum
     * may record the slow pod's shard missing, and reads hedge around it.
     */
    public static final Duration SLOW_POD_DELAY = Duration.ofMillis(200);

    /**
     * What a step with a {@link Kind#PARTITION} lasts beyond its drawn 1 to 5 s: a cut of a few seconds is one TCP
     * retransmits across, and the calls to a host cut off only wait. Held 11 to 15 s, the calls run into the
     * clients' call timeout (10 s, ChaosIT's), and the catalog's other peers elect a leader (1 to 2 s
     * election timeouts) while the one cut off may still believe it leads.
     */
    public static final Duration PARTITION_HOLD = Duration.ofSeconds(10);

    /** A {@link Kind#KILL_COORDINATOR}'s target: the catalog's leader. */
    public static final int LEADER = 0;
    /** A {@link Kind#KILL_COORDINATOR}'s target: a follower, the one after the leader (in the cluster's order). */
    public static final int FOLLOWER = 1;
    /** How long a step waits to learn who leads: an election may still run after the last step's restarts. */
    private static final Duration ELECTION = Duration.ofSeconds(60);

    /**
     * What a power cut loses: files written this recently. It must stay shorter than the pods' {@code
     * pod.purge.linger}, so that every file deleted still has its stash copy (a real power cut loses only
     * unsynced data, which the stash holds; deleting an already purged file would be a loss we made up).
     */
    public static final Duration POWER_LOSS_WINDOW = Duration.ofSeconds(1);

    /** A fault on its target: a process, pod or tome by index, a coordinator's or a partition's as their kind says. */
    public record Fault(Kind kind, int target, Shape shape) {
        @Override
        public String toString() {
            if (kind == Kind.KILL_COORDINATOR) {
                return kind.name().toLowerCase() + (target == LEADER ? " leader" : " follower");
            }
            if (kind == Kind.PARTITION) {
                return kind.name().toLowerCase() + " " + partitionTarget();
            }
            return kind.name().toLowerCase() + " " + target;
        }

        PartitionTarget partitionTarget() {
            return PartitionTarget.of(target, shape);
        }

        /** Whether it hits a coordinator named by its role, leader or follower, found when its step starts. */
        boolean hitsCoordinatorByRole() {
            return kind == Kind.KILL_COORDINATOR || (kind == Kind.PARTITION && partitionTarget().coordinator());
        }
    }

    /** One step: its faults start {@code at} after the run's start and are healed {@code down} later. */
    public record Step(Duration at, List<Fault> faults, Duration down) {
        @Override
        public String toString() {
            return "at " + at.toMillis() + " ms for " + down.toMillis() + " ms: "
                    + faults.stream().map(Fault::toString).collect(Collectors.joining(" + "));
        }
    }

    /**
     * What a schedule may hit: counts of processes, the pods that can be slowed, those whose tome can fill, and
     * whether hosts can be cut off.
     */
    public record Shape(int podProcesses, int stashServers, int coordinators, List<Integer> delayablePods,
                        List<Integer> fillableTomes, boolean partitionable) {
        public static Shape of(ProcessCluster cluster) {
            return new Shape(cluster.podProcessCount(), cluster.stashCount(), cluster.coordinatorCount(),
                    cluster.delayablePods(), cluster.fillableTomes(), cluster.partitionable());
        }

        List<Kind> kinds() {
            return Arrays.stream(Kind.values()).filter(k -> k != Kind.SLOW_POD || !delayablePods.isEmpty())
                    .filter(k -> k != Kind.FULL_TOME || !fillableTomes.isEmpty())
                    .filter(k -> k != Kind.PARTITION || partitionable).toList();
        }

        /** The coordinators a fault can tell apart: the leader, and with more than one a follower. */
        private int coordinatorTargets() {
            return coordinators > 1 ? 2 : 1;
        }
    }

    /**
     * A {@link Kind#PARTITION}'s host: targets 0 to podProcesses-1 are the pod processes' hosts, the stash
     * servers' come next, then the coordinators' ({@link #LEADER}, then {@link #FOLLOWER}).
     */
    public record PartitionTarget(Role role, int index) {
        /** Whose host a partition cuts off. */
        public enum Role { POD_PROCESS, STASH, COORDINATOR }

        static PartitionTarget of(int target, Shape shape) {
            if (target < shape.podProcesses()) {
                return new PartitionTarget(Role.POD_PROCESS, target);
            }
            int stash = target - shape.podProcesses();
            if (stash < shape.stashServers()) {
                return new PartitionTarget(Role.STASH, stash);
            }
            return new PartitionTarget(Role.COORDINATOR, stash - shape.stashServers());
        }

        boolean coordinator() {
            return role == Role.COORDINATOR;
        }

        @Override
        public String toString() {
            return switch (role) {
                case POD_PROCESS -> "pod process " + index;
                case STASH -> "stash " + index;
                case COORDINATOR -> index == LEADER ? "leader" : "follower";
            };
        }
    }

    /** What happened: each step as run, with the history's times of injection and healing. */
    public record Injected(Step step, long injectedAt, long healedAt, String detail) {
    }

    private final ProcessCluster cluster;
    private final History history;
    private final List<Injected> injected = new ArrayList<>();

    public Nemesis(ProcessCluster cluster, History history) {
        this.cluster = cluster;
        this.history = history;
    }

    /**
     * The steps for {@code length} of faults: a pause of 2 to 5 s, then one fault, or two (2 in 5) on distinct
     * targets, for 1 to 5 s, and {@link #PARTITION_HOLD} more with a partition; steps end before {@code length}
     * does. Pod process faults pick among the shape's pod processes, stash faults among its stash servers,
     * coordinator faults the leader or (with more than one coordinator) a follower, slow pods among its
     * delayable pods.
     */
    public static List<Step> schedule(long seed, Duration length, Shape shape) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Step> steps = new ArrayList<>();
        long at = 0;
        while (true) {
            at += random.nextLong(2_000, 5_001);
            long down = random.nextLong(1_000, 5_001);
            if (at + down > length.toMillis()) {
                return steps;
            }
            List<Fault> faults = new ArrayList<>();
            faults.add(fault(random, shape));
            if (random.nextInt(5) < 2) {
                Fault second = fault(random, shape);
                if (!conflicts(faults.get(0), second)) {
                    faults.add(second);
                }
            }
            if (faults.stream().anyMatch(f -> f.kind() == Kind.PARTITION)) {
                // Drawn nothing for: the schedules without a partition stay as they were.
                down += PARTITION_HOLD.toMillis();
                if (at + down > length.toMillis()) {
                    return steps;
                }
            }
            steps.add(new Step(Duration.ofMillis(at), List.copyOf(faults), Duration.ofMillis(down)));
            at += down;
        }
    }

    private static Fault fault(SplittableRandom random, Shape shape) {
        List<Kind> kinds = shape.kinds();
        Kind kind = kinds.get(random.nextInt(kinds.size()));
        int target = switch (kind) {
            case KILL_POD, POWER_LOSS_POD -> random.nextInt(shape.podProcesses());
            case KILL_STASH -> random.nextInt(shape.stashServers());
            // One coordinator draws nothing here: its schedules stay what they were before followers.
            case KILL_COORDINATOR -> shape.coordinators() > 1 ? random.nextInt(2) : LEADER;
            case SLOW_POD -> shape.delayablePods().get(random.nextInt(shape.delayablePods().size()));
            case FULL_TOME -> shape.fillableTomes().get(random.nextInt(shape.fillableTomes().size()));
            case PARTITION -> random.nextInt(shape.podProcesses() + shape.stashServers() + shape.coordinatorTargets());
        };
        return new Fault(kind, target, shape);
    }

    /** Two faults on one process are one; two power cuts at once could lose more shards than parity covers. */
    private static boolean conflicts(Fault a, Fault b) {
        boolean podA = a.kind() == Kind.KILL_POD || a.kind() == Kind.POWER_LOSS_POD;
        boolean podB = b.kind() == Kind.KILL_POD || b.kind() == Kind.POWER_LOSS_POD;
        if (podA && podB) {
            return a.target() == b.target() || (a.kind() == Kind.POWER_LOSS_POD && b.kind() == Kind.POWER_LOSS_POD);
        }
        return a.kind() == b.kind() && a.target() == b.target();
    }

    /**
     * Runs {@code steps} from now, each at its time or, when the restarts of the one before took longer than
     * the pause (a JVM's start takes seconds on a busy machine), right after; starts no step after {@code
     * length}. Returns once the last step run is healed.
     */
    public void run(List<Step> steps, Duration length) throws IOException, InterruptedException, TimeoutException {
        long start = System.nanoTime();
        for (Step step : steps) {
            if (System.nanoTime() - start > length.toNanos()) {
                LOG.info("nemesis: {} of {} steps run in {}; the rest skipped", injected.size(), steps.size(), length);
                return;
            }
            long wait = step.at().toNanos() - (System.nanoTime() - start);
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
            // Who leads is asked before anything is killed: a leader and a follower of one step are two processes.
            Map<Fault, Integer> processes = new HashMap<>();
            for (Fault fault : step.faults()) {
                processes.put(fault, process(fault));
            }
            long injectedAt = history.now();
            List<String> details = new ArrayList<>();
            for (Fault fault : step.faults()) {
                details.add(inject(fault, processes.get(fault)));
            }
            LOG.info("nemesis: {} injected ({})", step, String.join("; ", details));
            Thread.sleep(step.down().toMillis());
            // In the cluster's start order: a pod that lost power recovers from its stash server before it
            // listens, so a stash server killed with it must be back first.
            for (Fault fault : step.faults().stream().sorted(Comparator.comparingInt(Nemesis::healOrder)).toList()) {
                heal(fault, processes.get(fault));
            }
            long healedAt = history.now();
            LOG.info("nemesis: {} healed", step);
            injected.add(new Injected(step, injectedAt, healedAt, String.join("; ", details)));
        }
    }

    public List<Injected> injected() {
        return List.copyOf(injected);
    }

    /**
     * The index of the process {@code fault} hits: its target (a partition's: the index of its role's process),
     * but for a coordinator's, whose leader or follower is asked of the cluster now.
     */
    private int process(Fault fault) throws IOException, InterruptedException, TimeoutException {
        int target = fault.kind() == Kind.PARTITION ? fault.partitionTarget().index() : fault.target();
        if (!fault.hitsCoordinatorByRole()) {
            return target;
        }
        int coordinators = cluster.coordinatorCount();
        int leader = coordinators == 1 ? 0 : cluster.catalogLeader(ELECTION);
        return target == LEADER ? leader : (leader + 1) % coordinators;
    }

    /** The host a partition cuts off, its process found ({@link #process}). */
    private static String host(Fault fault, int process) {
        return switch (fault.partitionTarget().role()) {
            case POD_PROCESS -> ProcessCluster.podHost(process);
            case STASH -> ProcessCluster.stashHost(process);
            case COORDINATOR -> ProcessCluster.coordinatorHost(process);
        };
    }

    private String inject(Fault fault, int process) throws IOException, InterruptedException, TimeoutException {
        switch (fault.kind()) {
            case KILL_POD -> cluster.killPodProcess(process);
            case POWER_LOSS_POD -> {
                int lost = cluster.killPodProcessLosingUnflushed(process,
                        System.currentTimeMillis() - POWER_LOSS_WINDOW.toMillis());
                return fault + ": " + lost + " shard files lost";
            }
            case KILL_STASH -> cluster.killStash(process);
            case KILL_COORDINATOR -> {
                cluster.killCoordinator(process);
                return fault + ": " + ProcessCluster.peerId(process);
            }
            case SLOW_POD -> cluster.delayPod(process, SLOW_POD_DELAY);
            case FULL_TOME -> {
                return fault + ": full at " + cluster.fillTome(process) + " bytes";
            }
            case PARTITION -> {
                cluster.linkDown(host(fault, process));
                return fault + ": " + host(fault, process)
                        + (fault.partitionTarget().coordinator() ? " (" + ProcessCluster.peerId(process) + ")" : "");
            }
        }
        return fault.toString();
    }

    private static int healOrder(Fault fault) {
        return switch (fault.kind()) {
            // A pod killed with its tome full recovers onto it as it starts: the room comes back first; one killed
            // while its host or its stash server's was cut off, once the link is back.
            case KILL_STASH, FULL_TOME, PARTITION -> 0;
            case KILL_POD, POWER_LOSS_POD, SLOW_POD -> 1;
            case KILL_COORDINATOR -> 2;
        };
    }

    private void heal(Fault fault, int process) throws IOException, InterruptedException, TimeoutException {
        switch (fault.kind()) {
            case KILL_POD, POWER_LOSS_POD -> cluster.startPodProcess(process);
            case KILL_STASH -> cluster.startStash(process);
            case KILL_COORDINATOR -> cluster.startCoordinator(process);
            case SLOW_POD -> cluster.delayPod(process, Duration.ZERO);
            case FULL_TOME -> cluster.growTome(process);
            case PARTITION -> cluster.linkUp(host(fault, process));
        }
    }
}
