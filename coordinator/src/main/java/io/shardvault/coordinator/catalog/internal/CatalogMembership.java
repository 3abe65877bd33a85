package io.shardvault.coordinator.catalog.internal;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.CatalogConfig;
import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.catalog.CatalogMember;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Function;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.proto.RaftProtos.CommitInfoProto;
import org.apache.ratis.proto.RaftProtos.RoleInfoProto;
import org.apache.ratis.proto.RaftProtos.ServerRpcProto;
import org.apache.ratis.protocol.GroupInfoReply;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.SetConfigurationRequest;
import org.apache.ratis.server.RaftServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The catalog group's membership for operators: who is in it as the leader sees it, and changes through
 * Ratis {@code setConfiguration}. Every question goes to the leader (a follower's view of the others is
 * second hand), through a Raft client of its own whose retries are bounded: the coordinator's own client
 * retries forever, and an operator's command must end with an answer.
 *
 * <p>A change is a compare-and-set against the configuration read just before it, so two operators' changes
 * cannot silently overwrite each other; the loser fails and may look again. Ratis keeps a change safe (joint
 * consensus: the old and the new configuration's majorities both acknowledge it); the checks here only turn
 * the changes it would wait on forever, or that leave no group, into a clear refusal first.
 *
 * <p>Thread-safe; the blocking Ratis calls run on the given executor.
 */
final class CatalogMembership {
    private static final Logger LOG = LoggerFactory.getLogger(CatalogMembership.class);

    private final RaftServer.Division division;
    private final Function<RaftGroup, RaftClient> adminClients;
    private final Duration liveness;
    private final Executor executor;

    /**
     * @param division this coordinator's peer (for the leader's id and the current configuration)
     * @param adminClients a Raft client of the given group with bounded retries; closed after each use
     * @param liveness a follower the leader has not heard from for longer counts as not answering
     * @param executor where the blocking calls run
     */
    CatalogMembership(RaftServer.Division division, Function<RaftGroup, RaftClient> adminClients, Duration liveness,
                      Executor executor) {
        this.division = division;
        this.adminClients = adminClients;
        this.liveness = liveness;
        this.executor = executor;
    }

    CompletableFuture<List<CatalogMember>> members() {
        return CompletableFuture.supplyAsync(() -> {
            try (RaftClient client = client()) {
                return leaderView(client);
            } catch (IOException e) {
                throw new CompletionException(unavailable("reading the catalog group's membership", e));
            }
        }, executor);
    }

    CompletableFuture<List<CatalogMember>> add(CatalogConfig.Peer peer) {
        return CompletableFuture.supplyAsync(() -> {
            try (RaftClient client = client()) {
                List<CatalogMember> before = leaderView(client);
                for (CatalogMember m : before) {
                    if (m.id().equals(peer.id())) {
                        throw new IllegalArgumentException("catalog peer " + peer.id() + " is already in the group, at "
                                + m.address());
                    }
                    if (m.address().equals(peer.address())) {
                        throw new IllegalArgumentException(peer.address() + " is already catalog peer " + m.id());
                    }
                }
                List<RaftPeer> current = peers(before);
                List<RaftPeer> next = new ArrayList<>(current);
                next.add(RaftPeer.newBuilder().setId(peer.id()).setAddress(peer.address()).build());
                change(client, current, next, "adding catalog peer " + peer.id() + "=" + peer.address()
                        + " (is its coordinator running, with the group's peers and itself in catalog.peers?)");
                LOG.info("catalog peer {}={} added; the group is now {}", peer.id(), peer.address(), ids(next));
                return leaderView(client);
            } catch (IOException e) {
                throw new CompletionException(unavailable("adding catalog peer " + peer.id(), e));
            }
        }, executor);
    }

    CompletableFuture<List<CatalogMember>> remove(String peerId) {
        return CompletableFuture.supplyAsync(() -> {
            try (RaftClient client = client()) {
                List<CatalogMember> before = leaderView(client);
                if (before.stream().noneMatch(m -> m.id().equals(peerId))) {
                    throw new IllegalArgumentException("no catalog peer " + peerId + " in the group " + before.stream()
                            .map(CatalogMember::id).toList());
                }
                refuseUnsafeRemoval(before, peerId, liveness);
                List<RaftPeer> current = peers(before);
                List<RaftPeer> next = current.stream().filter(p -> !p.getId().toString().equals(peerId)).toList();
                change(client, current, next, "removing catalog peer " + peerId);
                LOG.info("catalog peer {} removed; the group is now {}", peerId, ids(next));
                return leaderView(client);
            } catch (IOException e) {
                throw new CompletionException(unavailable("removing catalog peer " + peerId, e));
            }
        }, executor);
    }

    /**
     * Refuses removing the last peer, and a removal that leaves fewer answering peers than a majority of the
     * present configuration: Ratis would wait for acknowledgements that cannot come.
     */
    static void refuseUnsafeRemoval(List<CatalogMember> group, String peerId, Duration liveness) {
        if (group.size() == 1) {
            throw new IllegalArgumentException(peerId + " is the group's last peer: the catalog would have none");
        }
        int majority = group.size() / 2 + 1;
        List<String> answering = group.stream().filter(m -> !m.id().equals(peerId))
                .filter(m -> m.lastContactMillis() >= 0 && m.lastContactMillis() <= liveness.toMillis())
                .map(CatalogMember::id).toList();
        if (answering.size() < majority) {
            throw new IllegalArgumentException("the change needs " + majority + " of the " + group.size()
                    + " peers to acknowledge it, and only " + answering.size() + " of those that stay answer the leader "
                    + answering + ": bring a peer back first");
        }
    }

    private RaftClient client() {
        return adminClients.apply(RaftGroup.valueOf(division.getMemberId().getGroupId(),
                division.getRaftConf().getCurrentPeers()));
    }

    /**
     * The membership as the leader has it (it alone knows when it last heard from each follower): from this
     * peer when it leads, else from the leader's answer to a GroupInfo request.
     */
    private List<CatalogMember> leaderView(RaftClient client) throws IOException {
        if (division.getInfo().isLeader()) {
            return view(division.getId(), division.getGroup().getPeers(), division.getCommitInfos(),
                    division.getInfo().getRoleInfoProto());
        }
        RaftPeerId leader = division.getInfo().getLeaderId();
        if (leader == null) {
            throw new IOException("no catalog leader is known now (an election is under way?)");
        }
        GroupInfoReply info;
        try {
            info = client.getGroupManagementApi(leader).info(division.getMemberId().getGroupId());
        } catch (RuntimeException e) {
            // gRPC's own failures (a deadline, an unreachable leader) come unchecked from the blocking call.
            throw new IOException("asking catalog leader " + leader + ": " + e.getMessage(), e);
        }
        return view(leader, info.getGroup().getPeers(), info.getCommitInfos(), info.getRoleInfoProto());
    }

    private static List<CatalogMember> view(RaftPeerId leader, Collection<RaftPeer> peers,
                                            Collection<CommitInfoProto> commitInfos, RoleInfoProto role)
            throws IOException {
        if (!role.hasLeaderInfo()) {
            throw new IOException("catalog peer " + leader + " no longer leads");
        }
        Map<String, Long> commits = new HashMap<>();
        for (CommitInfoProto c : commitInfos) {
            commits.put(c.getServer().getId().toStringUtf8(), c.getCommitIndex());
        }
        Map<String, Long> contact = new HashMap<>();
        for (ServerRpcProto f : role.getLeaderInfo().getFollowerInfoList()) {
            contact.put(f.getId().getId().toStringUtf8(), f.getLastRpcElapsedTimeMs());
        }
        List<CatalogMember> out = new ArrayList<>();
        for (RaftPeer p : peers) {
            String id = p.getId().toString();
            boolean leads = p.getId().equals(leader);
            out.add(new CatalogMember(id, p.getAddress(), leads ? "LEADER" : p.getStartupRole().name(),
                    commits.getOrDefault(id, -1L), leads ? 0 : contact.getOrDefault(id, -1L)));
        }
        out.sort(Comparator.comparing(CatalogMember::id));
        return out;
    }

    private static List<RaftPeer> peers(List<CatalogMember> members) {
        return members.stream().map(m -> RaftPeer.newBuilder().setId(m.id()).setAddress(m.address()).build())
                .toList();
    }

    /**
     * Sets the configuration {@code next} if it is still {@code current}. A change the client had to retry may
     * have taken effect at its first attempt, whose answer was lost: the retry's compare then fails against
     * the change itself. So a failed change is checked against the leader's view, and counts as done when the
     * group is {@code next} already.
     */
    private void change(RaftClient client, List<RaftPeer> current, List<RaftPeer> next, String what)
            throws IOException {
        Object failure;
        try {
            RaftClientReply reply = client.admin().setConfiguration(SetConfigurationRequest.Arguments.newBuilder()
                    .setServersInCurrentConf(current).setServersInNewConf(next)
                    .setMode(SetConfigurationRequest.Mode.COMPARE_AND_SET).build());
            if (reply.isSuccess()) {
                return;
            }
            failure = reply.getException();
        } catch (IOException e) {
            failure = e;
        }
        if (addresses(peers(leaderView(client))).equals(addresses(next))) {
            LOG.info("{}: done, though its last attempt answered {}", what, failure);
            return;
        }
        throw new IOException(what + " failed: " + failure);
    }

    /** Peer id to address, of a group. */
    private static Map<String, String> addresses(List<RaftPeer> group) {
        Map<String, String> out = new HashMap<>();
        group.forEach(p -> out.put(p.getId().toString(), p.getAddress()));
        return out;
    }

    private static List<String> ids(List<RaftPeer> peers) {
        return peers.stream().map(p -> p.getId().toString()).toList();
    }

    private static CatalogException unavailable(String what, IOException e) {
        return new CatalogException(ErrorCode.UNAVAILABLE, what + ": " + e.getMessage(), e);
    }
}
