package io.shardvault.coordinator.catalog;

import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.ListenerGuard;
import io.shardvault.common.config.Settings;
import io.shardvault.common.config.TlsSettings;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The resolved options of one catalog peer.
 *
 * <table>
 *   <caption>Options</caption>
 *   <tr><th>option</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>peerId / peers</td><td>c1 / c1=127.0.0.1:9860</td><td>this peer and the group (1, 3 or 5)</td></tr>
 *   <tr><td>dataDir</td><td>data/catalog</td><td>RocksDB, snapshots, Raft log</td></tr>
 *   <tr><td>snapshotEveryEntries</td><td>100,000</td><td>checkpoint period; the log is purged behind it</td></tr>
 *   <tr><td>electionTimeoutMin/Max</td><td>1 s / 2 s</td><td>failure detection vs. spurious elections</td></tr>
 *   <tr><td>requestTimeout</td><td>15 s</td><td>a call's whole budget, retries included</td></tr>
 *   <tr><td>dedupWindow</td><td>10 min</td><td>how long a write's result is kept for its retries</td></tr>
 *   <tr><td>leaderLease</td><td>true</td><td>reads under the leader's lease (docs/CATALOG.md)</td></tr>
 *   <tr><td>secrets.keyFile</td><td>required</td><td>the cluster keys sealing S3 secrets ({@link SecretCipher});
 *       none only with security.insecure = true</td></tr>
 *   <tr><td>store</td><td>64 MiB memtables, 32 MiB block cache</td><td>the RocksDB memory ({@link CatalogStoreOptions})</td></tr>
 * </table>
 */
public record CatalogConfig(String peerId, List<Peer> peers, UUID groupId, Path dataDir, int snapshotEveryEntries,
                            int snapshotsRetained, long logSegmentBytes, Duration electionTimeoutMin,
                            Duration electionTimeoutMax, Duration requestTimeout, int maxOutstanding,
                            int readThreads, Duration dedupWindow, boolean leaderLease, CatalogStoreOptions store,
                            Optional<TlsSettings> tls, Optional<SecretCipher> secrets) {

    private static final Logger LOG = LoggerFactory.getLogger(CatalogConfig.class);

    /** One peer of the group. */
    public record Peer(String id, String host, int port) {
        public Peer {
            if (!id.matches("[A-Za-z0-9_-]{1,64}")) {
                throw new IllegalArgumentException("bad peer id: " + id);
            }
            Objects.requireNonNull(host, "host");
            if (port < 1 || port > 65_535) {
                throw new IllegalArgumentException("bad port for " + id + ": " + port);
            }
        }

        public String address() {
            return host + ":" + port;
        }
    }

    public CatalogConfig {
        Objects.requireNonNull(peerId, "peerId");
        peers = List.copyOf(peers);
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(secrets, "secrets");
        Set<String> ids = new HashSet<>();
        for (Peer p : peers) {
            if (!ids.add(p.id())) {
                throw new IllegalArgumentException("duplicate catalog peer id " + p.id());
            }
        }
        if (!ids.contains(peerId)) {
            throw new IllegalArgumentException("peer id " + peerId + " is not among the peers " + ids);
        }
        if (electionTimeoutMax.compareTo(electionTimeoutMin) <= 0) {
            throw new IllegalArgumentException("election timeoutMax must exceed timeoutMin: "
                    + electionTimeoutMin + " / " + electionTimeoutMax);
        }
    }

    /** This peer's entry. */
    public Peer self() {
        return peers.stream().filter(p -> p.id().equals(peerId)).findFirst().orElseThrow();
    }

    public static CatalogConfig from(Settings settings) {
        CatalogConfig config;
        try {
            config = new CatalogConfig(settings.get(CatalogConfigKeys.PEER_ID),
                    parsePeers(settings.get(CatalogConfigKeys.PEERS)),
                    UUID.fromString(settings.get(CatalogConfigKeys.GROUP_ID)),
                    settings.get(CatalogConfigKeys.DATA_DIR), settings.get(CatalogConfigKeys.SNAPSHOT_EVERY),
                    settings.get(CatalogConfigKeys.SNAPSHOTS_RETAINED), settings.get(CatalogConfigKeys.LOG_SEGMENT_BYTES),
                    settings.get(CatalogConfigKeys.ELECTION_TIMEOUT_MIN),
                    settings.get(CatalogConfigKeys.ELECTION_TIMEOUT_MAX),
                    settings.get(CatalogConfigKeys.REQUEST_TIMEOUT), settings.get(CatalogConfigKeys.MAX_OUTSTANDING),
                    settings.get(CatalogConfigKeys.READ_THREADS), settings.get(CatalogConfigKeys.DEDUP_WINDOW),
                    settings.get(CatalogConfigKeys.LEADER_LEASE), CatalogStoreOptions.from(settings),
                    TlsSettings.from(settings), Optional.empty());
        } catch (IllegalArgumentException e) {
            throw new ConfigException("catalog: " + e.getMessage());
        }
        // Without TLS, a peer beyond loopback could be joined or driven by anyone; with it, only the cluster CA's.
        Peer self = config.self();
        ListenerGuard.from(settings).admit(CatalogConfigKeys.PEERS.name() + " (this peer, " + self.id() + ")",
                new InetSocketAddress(self.host(), self.port()), config.tls().isPresent());
        // Last, so that a misnamed peer or port is reported before a missing key file.
        return new CatalogConfig(config.peerId, config.peers, config.groupId, config.dataDir,
                config.snapshotEveryEntries, config.snapshotsRetained, config.logSegmentBytes,
                config.electionTimeoutMin, config.electionTimeoutMax, config.requestTimeout, config.maxOutstanding,
                config.readThreads, config.dedupWindow, config.leaderLease, config.store, config.tls,
                secrets(settings));
    }

    /**
     * The cluster keys, or none when {@code security.insecure = true} accepts plaintext secrets (said at WARN
     * at every start, as {@link ListenerGuard} says of an unprotected port).
     */
    private static Optional<SecretCipher> secrets(Settings settings) {
        String key = CatalogConfigKeys.SECRETS_KEY_FILE.name();
        if (settings.isSet(key)) {
            return Optional.of(SecretCipher.fromFile(settings.get(CatalogConfigKeys.SECRETS_KEY_FILE)));
        }
        if (!settings.get(ListenerGuard.INSECURE)) {
            throw new ConfigException(key + " is not set: S3 secret keys would be stored in the catalog (its Raft log,"
                    + " RocksDB and snapshots) as they are. Create a file of one line id:base64 of 32 random bytes,"
                    + " mode 0600, name it in " + key + " (docs/SECURITY.md), or set " + ListenerGuard.INSECURE.name()
                    + " = true to store them unencrypted");
        }
        LOG.warn("{} is not set ({} = true): S3 secret keys are stored in the catalog unencrypted", key,
                ListenerGuard.INSECURE.name());
        return Optional.empty();
    }

    /** Parses {@code id=host:port[,id=host:port...]}. */
    public static List<Peer> parsePeers(String spec) {
        List<Peer> out = new ArrayList<>();
        for (String item : spec.split(",")) {
            String s = item.trim();
            int eq = s.indexOf('=');
            int colon = s.lastIndexOf(':');
            if (eq <= 0 || colon <= eq + 1 || colon == s.length() - 1) {
                throw new IllegalArgumentException("peer must be id=host:port: '" + s + "'");
            }
            try {
                out.add(new Peer(s.substring(0, eq), s.substring(eq + 1, colon), Integer.parseInt(s.substring(colon + 1))));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad port in '" + s + "'", e);
            }
        }
        return out;
    }
}
