package io.shardvault.coordinator.admin.internal;

import io.shardvault.coordinator.admin.CatalogMXBean;
import io.shardvault.coordinator.admin.CatalogView;
import io.shardvault.coordinator.catalog.CatalogServer;
import io.shardvault.coordinator.catalog.CatalogStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The Catalog MXBean over this coordinator's catalog peer. Thread-safe. */
public final class CatalogBean implements CatalogMXBean {
    private static final Logger LOG = LoggerFactory.getLogger(CatalogBean.class);

    private final CatalogServer server;

    public CatalogBean(CatalogServer server) {
        this.server = server;
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
    public String transferLeadership(String peerId) {
        Await.call(() -> server.transferLeadership(peerId), "transferring the catalog leadership to " + peerId);
        LOG.info("operator moved the catalog leadership to peer={}", peerId);
        return server.leaderId().orElse(peerId);
    }
}
