package io.shardvault.coordinator.admin.internal;

import io.shardvault.coordinator.admin.CatalogMXBean;
import io.shardvault.coordinator.admin.CatalogMemberView;
import io.shardvault.coordinator.admin.CatalogView;
import io.shardvault.coordinator.admin.ClusterMapInit;
import io.shardvault.coordinator.catalog.CatalogConfig;
import io.shardvault.coordinator.catalog.CatalogMember;
import io.shardvault.coordinator.catalog.CatalogServer;
import io.shardvault.coordinator.catalog.CatalogStatus;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The Catalog MXBean over this coordinator's catalog peer. Thread-safe. */
public final class CatalogBean implements CatalogMXBean {
    private static final Logger LOG = LoggerFactory.getLogger(CatalogBean.class);

    private final CatalogServer server;
    private final ClusterMapInit mapInit;

    public CatalogBean(CatalogServer server, ClusterMapInit mapInit) {
        this.server = server;
        this.mapInit = mapInit;
    }

    CatalogView view() {
        CatalogStatus s = server.status();
        return new CatalogView(s.peerId(), s.role(), s.leaderId().orElse(""), s.term(), s.appliedIndex(), s.peers());
    }

    @Override
    public String getPeerId() {
        return server.peerId();
    }

    @Override
    public String getRole() {
        return server.status().role();
    }

    @Override
    public String getLeaderId() {
        return server.leaderId().orElse("");
    }

    @Override
    public long getTerm() {
        return server.status().term();
    }

    @Override
    public long getAppliedIndex() {
        return server.status().appliedIndex();
    }

    @Override
    public String[] getPeers() {
        return server.status().peers().toArray(String[]::new);
    }

    @Override
    public long takeSnapshot() {
        long index = Await.get(server.takeSnapshot(), "catalog snapshot on peer " + server.peerId());
        LOG.info("operator took a catalog snapshot peer={} index={}", server.peerId(), index);
        return index;
    }

    @Override
    public CatalogMemberView[] getMembers() {
        return views(Await.get(server.members(), "reading the catalog group's membership"));
    }

    @Override
    public CatalogMemberView[] addPeer(String peer) {
        List<CatalogMember> members = Await.call(() -> server.addPeer(parsePeer(peer)), "adding catalog peer " + peer);
        LOG.info("operator added catalog peer {}", peer);
        return views(members);
    }

    @Override
    public CatalogMemberView[] removePeer(String peerId) {
        List<CatalogMember> members = Await.call(() -> server.removePeer(peerId), "removing catalog peer " + peerId);
        LOG.info("operator removed catalog peer {}", peerId);
        return views(members);
    }

    /** One {@code id=host:port}, as catalog.peers names each peer. */
    private static CatalogConfig.Peer parsePeer(String peer) {
        List<CatalogConfig.Peer> peers = CatalogConfig.parsePeers(peer);
        if (peers.size() != 1) {
            throw new IllegalArgumentException("name one peer as id=host:port, not '" + peer + "'");
        }
        return peers.get(0);
    }

    private static CatalogMemberView[] views(List<CatalogMember> members) {
        return members.stream().map(CatalogMemberView::of).toArray(CatalogMemberView[]::new);
    }

    @Override
    public String[] initMap(String map) {
        List<String> done = Await.call(() -> mapInit.init(map), "registering the cluster map");
        LOG.info("operator registered the cluster map: {}", String.join(" ", done));
        return done.toArray(String[]::new);
    }

    @Override
    public String transferLeadership(String peerId) {
        Await.call(() -> server.transferLeadership(peerId), "transferring the catalog leadership to " + peerId);
        LOG.info("operator moved the catalog leadership to peer={}", peerId);
        return server.leaderId().orElse(peerId);
    }
}
