package io.shardvault.coordinator.catalog.internal;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.shardvault.common.DaemonThreads;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.CatalogConfig;
import io.shardvault.coordinator.catalog.CatalogMember;
import io.shardvault.coordinator.catalog.CatalogServer;
import io.shardvault.coordinator.catalog.CatalogStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcTlsConfig;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.retry.RetryPolicy;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Ratis-backed catalog peer: a gRPC Raft server around a {@link CatalogStateMachine}, and the
 * coordinator's own {@link RatisCatalog}, which calls this server in-process while it leads and
 * goes through a Raft client otherwise.
 *
 * <pre>
 *  &lt;dataDir&gt;/catalog.id   "group=&lt;uuid&gt; peer=&lt;id&gt;": a directory is never reused by another peer or group
 *  &lt;dataDir&gt;/db/          the live RocksDB
 *  &lt;dataDir&gt;/ratis/       Ratis storage: Raft log, metadata, and sm/ with the checkpoint snapshots
 * </pre>
 *
 * <p>Thread-safe.
 */
public final class RatisCatalogServer implements CatalogServer {
    private static final Logger LOG = LoggerFactory.getLogger(RatisCatalogServer.class);

    /** The leader lease as a share of the minimum election timeout; the rest is the clock-rate margin. */
    static final double LEASE_RATIO = 0.9;

    /** Catalog calls retry until their own timeout ({@link RatisCalls}) gives up on them. */
    private static final RetryPolicy CALL_RETRIES =
            RetryPolicies.retryForeverWithSleep(TimeDuration.valueOf(50, TimeUnit.MILLISECONDS));
    /** Membership commands are an operator's: a few retries, then an answer, never a wait without end. */
    private static final RetryPolicy ADMIN_RETRIES =
            RetryPolicies.retryUpToMaximumCountWithFixedSleep(5, TimeDuration.valueOf(500, TimeUnit.MILLISECONDS));

    private final CatalogConfig config;
    private final RaftServer server;
    private final RaftClient client;
    private final RaftGroupId groupId;
    private final RatisCatalog catalog;
    private final ExecutorService readExecutor;
    private final ExecutorService replyExecutor;
    private final CatalogMembership membership;

    private RatisCatalogServer(CatalogConfig config, RaftServer server, RaftClient client, RaftGroupId groupId,
                               RatisCatalog catalog, ExecutorService readExecutor, ExecutorService replyExecutor,
                               CatalogMembership membership) {
        this.config = config;
        this.server = server;
        this.client = client;
        this.groupId = groupId;
        this.catalog = catalog;
        this.readExecutor = readExecutor;
        this.replyExecutor = replyExecutor;
        this.membership = membership;
    }

    /** Starts the peer and its client; the group may still be electing a leader when this returns. */
    public static CatalogServer start(CatalogConfig config, MeterRegistry registry) throws IOException {
        Path dataDir = config.dataDir();
        Files.createDirectories(dataDir);
        stampOrCheck(dataDir.resolve("catalog.id"), "group=" + config.groupId() + " peer=" + config.peerId());

        RaftProperties props = properties(config);
        List<RaftPeer> peers = config.peers().stream()
                .map(p -> RaftPeer.newBuilder().setId(p.id()).setAddress(p.address()).build()).toList();
        RaftGroupId groupId = RaftGroupId.valueOf(config.groupId());
        RaftGroup group = RaftGroup.valueOf(groupId, peers);
        refuseSnapshotsRatisWouldDelete(dataDir.resolve("ratis").resolve(groupId.getUuid().toString()));

        ExecutorService readExecutor = Executors.newFixedThreadPool(config.readThreads(),
                DaemonThreads.numbered("catalog-read"));
        CatalogStateMachine sm = new CatalogStateMachine(dataDir.resolve("db"), config.store(), readExecutor,
                Clock.systemUTC(), registry, config.peerId());
        RaftServer server = RaftServer.newBuilder().setServerId(RaftPeerId.valueOf(config.peerId()))
                .setStateMachine(sm).setProperties(props).setParameters(parameters(config)).setGroup(group)
                .setOption(RaftStorage.StartupOption.RECOVER).build();
        RaftServer.Division division;
        try {
            server.start();
            division = server.getDivision(groupId);
        } catch (IOException | RuntimeException e) {
            server.close();
            readExecutor.shutdownNow();
            throw e;
        }
        // Completes the futures of in-process calls, so that callers' continuations run neither on
        // the peer's apply thread nor on its read threads. Cached, like gRPC's executor it replaces:
        // a continuation that blocks holds only its own thread.
        ExecutorService replyExecutor = Executors.newCachedThreadPool(DaemonThreads.numbered("catalog-reply"));
        RaftClient client = newClient(props, parameters(config), group, CALL_RETRIES);
        CatalogMembership membership = new CatalogMembership(division,
                g -> newClient(props, parameters(config), g, ADMIN_RETRIES), config.electionTimeoutMax(), readExecutor);
        RatisCatalog catalog = new RatisCatalog(client,
                Optional.of(new RatisCalls.LocalPeer(division, replyExecutor)), config.requestTimeout(), registry,
                config.secrets());
        RatisCatalogServer started = new RatisCatalogServer(config, server, client, groupId, catalog, readExecutor,
                replyExecutor, membership);
        // This peer's current Raft term (NaN once closed): it only grows, by one per election.
        Gauge.builder("shardvault.catalog.term", started, RatisCatalogServer::currentTerm).tag("peer", config.peerId())
                .description("The current Raft term of this catalog peer").register(registry);
        // 1 while this peer is the leader, else 0: exactly one peer of a healthy group reports 1.
        Gauge.builder("shardvault.catalog.leader", started, s -> s.isLeader() ? 1 : 0).tag("peer", config.peerId())
                .description("Whether this catalog peer is the leader").register(registry);
        return started;
    }

    /**
     * Ratis formats a group directory that holds no Raft storage yet ({@code current/}), and clears its
     * {@code sm/} in doing so: a copied snapshot put there before the peer's first start would be deleted and the
     * peer would start with an empty catalog. Refused instead, saying how a restore goes.
     */
    static void refuseSnapshotsRatisWouldDelete(Path groupDir) throws IOException {
        Path sm = groupDir.resolve("sm");
        if (Files.isDirectory(groupDir.resolve("current")) || !Files.isDirectory(sm)) {
            return;
        }
        List<String> snapshots;
        try (Stream<Path> entries = Files.list(sm)) {
            snapshots = entries.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("snapshot."))
                    .sorted().toList();
        }
        if (!snapshots.isEmpty()) {
            throw new IOException("catalog storage " + groupDir + " holds snapshots " + snapshots + " in sm/ but no "
                    + "Raft storage (current/): Ratis would format it and delete them. To restore a copied snapshot, "
                    + "move it out of " + sm + ", start this peer once on the empty directory, stop it, put the "
                    + "snapshot back into sm/ and start it again (docs/DEPLOYMENT.md, \"Restoring the catalog\")");
        }
    }

    private static RaftClient newClient(RaftProperties props, Parameters parameters, RaftGroup group,
                                        RetryPolicy retries) {
        return RaftClient.newBuilder().setProperties(props).setParameters(parameters).setRaftGroup(group)
                .setClientId(ClientId.randomId()).setRetryPolicy(retries).build();
    }

    /**
     * A client-only view for a coordinator that is not one of the catalog peers: it talks to the
     * peers named in {@code config} ({@code peerId} and {@code dataDir} are not used). Close it
     * when done.
     */
    public static Catalog connect(CatalogConfig config, MeterRegistry registry) {
        RaftProperties props = properties(config);
        List<RaftPeer> peers = config.peers().stream()
                .map(p -> RaftPeer.newBuilder().setId(p.id()).setAddress(p.address()).build()).toList();
        RaftGroup group = RaftGroup.valueOf(RaftGroupId.valueOf(config.groupId()), peers);
        return new RatisCatalog(newClient(props, parameters(config), group, CALL_RETRIES), Optional.empty(),
                config.requestTimeout(), registry, config.secrets());
    }

    /**
     * The gRPC transport's TLS (issue #21), when the cluster's tls.* are set: mutual TLS with the cluster
     * CA as the only trust anchor on every Raft channel, server, client and admin alike, so a peer or
     * client without a certificate of that CA is refused at the handshake.
     */
    static Parameters parameters(CatalogConfig config) {
        Parameters parameters = new Parameters();
        config.tls().ifPresent(tls -> {
            GrpcTlsConfig grpc = new GrpcTlsConfig(tls.key().toFile(), tls.certificate().toFile(), tls.ca().toFile(),
                    true);
            GrpcConfigKeys.TLS.setConf(parameters, grpc);
            GrpcConfigKeys.Server.setTlsConf(parameters, grpc);
            GrpcConfigKeys.Client.setTlsConf(parameters, grpc);
            GrpcConfigKeys.Admin.setTlsConf(parameters, grpc);
            LOG.info("catalog raft tls=mutual certificate={} ca={}", tls.certificate(), tls.ca());
        });
        return parameters;
    }

    /**
     * Diagnostics for tests and operators: a peer's (applied index, CRC32C over every table),
     * read from that peer once it has applied {@code minIndex}. Equal index, equal checksum.
     */
    public static CompletableFuture<long[]> stateChecksum(Catalog catalog, String peerId, long minIndex) {
        return ((RatisCatalog) catalog).stateChecksum(peerId, minIndex);
    }

    static RaftProperties properties(CatalogConfig config) {
        RaftProperties props = new RaftProperties();
        RaftServerConfigKeys.setStorageDir(props, List.of(config.dataDir().resolve("ratis").toFile()));
        // The peer's own address only: left unset, gRPC listens on every interface.
        GrpcConfigKeys.Server.setHost(props, config.self().host());
        GrpcConfigKeys.Server.setPort(props, config.self().port());
        RaftServerConfigKeys.Read.setOption(props, RaftServerConfigKeys.Read.Option.LINEARIZABLE);
        // A leader whose lease is valid (a majority acknowledged a heartbeat it sent less than
        // 0.9 x the minimum election timeout ago) answers a ReadIndex without a heartbeat round.
        // Why that stays linearizable, and the clock assumption: docs/CATALOG.md, "Leader lease".
        RaftServerConfigKeys.Read.setLeaderLeaseEnabled(props, config.leaderLease());
        RaftServerConfigKeys.Read.setLeaderLeaseTimeoutRatio(props, LEASE_RATIO);
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(props, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(props, config.snapshotEveryEntries());
        RaftServerConfigKeys.Snapshot.setRetentionFileNum(props, config.snapshotsRetained());
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(props, true);
        RaftServerConfigKeys.Log.setPurgeGap(props, Math.max(1, Math.min(1024, config.snapshotEveryEntries() / 4)));
        RaftServerConfigKeys.Log.setSegmentSizeMax(props, SizeInBytes.valueOf(config.logSegmentBytes()));
        RaftServerConfigKeys.Log.Appender.setInstallSnapshotEnabled(props, true);
        RaftServerConfigKeys.Rpc.setTimeoutMin(props, duration(config.electionTimeoutMin()));
        RaftServerConfigKeys.Rpc.setTimeoutMax(props, duration(config.electionTimeoutMax()));
        RaftClientConfigKeys.Async.setOutstandingRequestsMax(props, config.maxOutstanding());
        // One attempt's timeout; the client retries on another peer after it. Generous: a loaded
        // machine answers slowly, and a premature retry only adds load.
        Duration attempt = config.electionTimeoutMax().multipliedBy(2);
        RaftClientConfigKeys.Rpc.setRequestTimeout(props,
                duration(attempt.compareTo(Duration.ofSeconds(3)) < 0 ? Duration.ofSeconds(3) : attempt));
        return props;
    }

    private static TimeDuration duration(Duration d) {
        return TimeDuration.valueOf(d.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Refuses a data directory stamped for another peer or group. */
    private static void stampOrCheck(Path stamp, String identity) throws IOException {
        if (Files.exists(stamp)) {
            String found = Files.readString(stamp, StandardCharsets.UTF_8).trim();
            if (!found.equals(identity)) {
                throw new IOException("catalog data directory " + stamp.getParent() + " belongs to '" + found
                        + "', not '" + identity + "'");
            }
            return;
        }
        Path tmp = stamp.resolveSibling(stamp.getFileName() + ".tmp");
        Files.writeString(tmp, identity + "\n", StandardCharsets.UTF_8);
        Files.move(tmp, stamp, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    @Override
    public Catalog catalog() {
        return catalog;
    }

    @Override
    public String peerId() {
        return config.peerId();
    }

    @Override
    public Optional<String> leaderId() {
        try {
            var info = server.getDivision(groupId).getInfo();
            if (info.isLeader()) {
                return Optional.of(config.peerId());
            }
            RaftPeerId leader = info.getLeaderId();
            return Optional.ofNullable(leader).map(RaftPeerId::toString);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private double currentTerm() {
        long term = term();
        return term < 0 ? Double.NaN : term;
    }

    @Override
    public long term() {
        try {
            return server.getDivision(groupId).getInfo().getCurrentTerm();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    @Override
    public boolean isLeader() {
        try {
            return server.getDivision(groupId).getInfo().isLeader();
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public CatalogStatus status() {
        try {
            var division = server.getDivision(groupId);
            var info = division.getInfo();
            return new CatalogStatus(config.peerId(), info.getCurrentRole().name(), leaderId(), info.getCurrentTerm(),
                    info.getLastAppliedIndex(), currentPeers(division).stream().map(p -> p.getId() + "="
                    + p.getAddress()).toList());
        } catch (IOException e) {
            return new CatalogStatus(config.peerId(), "UNKNOWN", Optional.empty(), -1, -1,
                    config.peers().stream().map(p -> p.id() + "=" + p.address()).toList());
        }
    }

    /**
     * The group's peers as this peer's Raft configuration has them: catalog.peers only at the group's first start,
     * then whatever add-peer and remove-peer made of it.
     */
    private static Collection<RaftPeer> currentPeers(RaftServer.Division division) {
        return division.getRaftConf().getCurrentPeers();
    }

    @Override
    public CompletableFuture<List<CatalogMember>> members() {
        return membership.members();
    }

    @Override
    public CompletableFuture<List<CatalogMember>> addPeer(CatalogConfig.Peer peer) {
        return membership.add(peer);
    }

    @Override
    public CompletableFuture<List<CatalogMember>> removePeer(String peerId) {
        return membership.remove(peerId);
    }

    @Override
    public CompletableFuture<Long> takeSnapshot() {
        long timeoutMs = Math.max(10_000, config.requestTimeout().toMillis());
        return CompletableFuture.supplyAsync(() -> {
            try {
                RaftClientReply reply = client.getSnapshotManagementApi(RaftPeerId.valueOf(config.peerId()))
                        .create(1, timeoutMs); // gap 1: the server's default gap (1024 entries) would skip it
                if (!reply.isSuccess()) {
                    throw new CompletionException(new IOException("snapshot refused: " + reply.getException()));
                }
                return reply.getLogIndex();
            } catch (IOException e) {
                throw new CompletionException(e);
            }
        }, readExecutor);
    }

    @Override
    public CompletableFuture<Void> transferLeadership(String peerId) {
        List<String> peers;
        try {
            peers = currentPeers(server.getDivision(groupId)).stream().map(p -> p.getId().toString()).toList();
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
        if (!peers.contains(peerId)) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("no catalog peer '" + peerId
                    + "' in the group (peers: " + peers + ")"));
        }
        long timeoutMs = Math.max(5_000, config.electionTimeoutMax().toMillis() * 4);
        return CompletableFuture.runAsync(() -> {
            try {
                RaftClientReply reply = client.admin().transferLeadership(RaftPeerId.valueOf(peerId), timeoutMs);
                if (!reply.isSuccess()) {
                    throw new CompletionException(new IOException("leadership transfer to " + peerId + " failed: "
                            + reply.getException()));
                }
            } catch (IOException e) {
                throw new CompletionException(e);
            }
        }, readExecutor);
    }

    @Override
    public void close() throws IOException {
        try {
            client.close();
        } finally {
            try {
                server.close();
            } finally {
                readExecutor.shutdownNow();
                replyExecutor.shutdown();
            }
        }
    }
}
