package io.shardvault.coordinator.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.testing.FreePorts;
import io.shardvault.coordinator.catalog.internal.RatisCatalogServer;
import io.shardvault.coordinator.repair.LeaderTenure;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog group's membership through {@link CatalogServer} on real Ratis peers in this JVM: the leader's view
 * of the peers, a fourth peer added through a follower and serving, a peer removed and stopped while the rest
 * keep committing, and the removals refused: an unknown peer, one the answering peers could not commit, the
 * last peer; and a leader whose group grew from one peer waits out the takeover delay.
 */
@Timeout(180)
class CatalogMembershipTest {
    private static final FileLayout LAYOUT = new FileLayout(4, 2, 65536);

    @TempDir
    Path dir;
    private final List<CatalogServer> servers = new ArrayList<>();

    @AfterEach
    void stopAll() throws Exception {
        for (CatalogServer s : servers) {
            if (s != null) {
                s.close();
            }
        }
    }

    private CatalogServer start(int i, String spec) throws Exception {
        CatalogServer s = RatisCatalogServer.start(CatalogTestPeers.config("p" + (i + 1), spec,
                dir.resolve("p" + (i + 1)), 1000), new SimpleMeterRegistry());
        servers.add(s);
        return s;
    }

    private static <T> T get(CompletableFuture<T> f) throws Exception {
        return f.get(60, TimeUnit.SECONDS);
    }

    private int leader() throws Exception {
        for (int round = 0; round < 300; round++) {
            for (int i = 0; i < servers.size(); i++) {
                if (servers.get(i) != null && servers.get(i).isLeader()) {
                    return i;
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no leader within 15 s");
    }

    private static void put(Catalog catalog, String key) throws Exception {
        get(catalog.putObjectVersion(PutObjectVersion.of("members", key, "e", ObjectMetadata.EMPTY,
                new FileRef(1, key.hashCode() & 0xffff, 1, LAYOUT, List.of()))));
    }

    private static List<String> ids(List<CatalogMember> members) {
        return members.stream().map(CatalogMember::id).sorted().toList();
    }

    @Test
    void aPeerIsAddedThroughAFollowerAndAnotherRemovedWhileTheGroupServes() throws Exception {
        List<Integer> ports = FreePorts.loopback(4);
        String three = CatalogTestPeers.peersSpec(ports.subList(0, 3));
        String four = CatalogTestPeers.peersSpec(ports);
        for (int i = 0; i < 3; i++) {
            start(i, three);
        }
        int leader = leader();
        get(servers.get(leader).catalog().createBucket("members", "AK", false));
        // Committed by a majority: the third peer may take a moment longer to have it (a loaded machine).
        List<CatalogMember> before = get(servers.get(0).members());
        long caughtUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (before.stream().anyMatch(m -> m.commitIndex() < 0) && System.nanoTime() < caughtUp) {
            Thread.sleep(50);
            before = get(servers.get(0).members());
        }
        assertThat(ids(before)).containsExactly("p1", "p2", "p3");
        assertThat(before).filteredOn(m -> m.role().equals("LEADER")).extracting(CatalogMember::id)
                .containsExactly("p" + (leader + 1));
        assertThat(before).allSatisfy(m -> assertThat(m.commitIndex()).isGreaterThanOrEqualTo(0));

        // p4 starts knowing all four; the group learns of it through a follower's add-peer.
        CatalogServer p4 = start(3, four);
        int follower = leader == 0 ? 1 : 0;
        List<CatalogMember> added = get(servers.get(follower).addPeer(new CatalogConfig.Peer("p4", "127.0.0.1",
                ports.get(3))));
        assertThat(ids(added)).containsExactly("p1", "p2", "p3", "p4");
        put(p4.catalog(), "through-p4");
        assertThat(get(servers.get(leader).catalog().getObjectVersion("members", "through-p4",
                Optional.empty())).key()).isEqualTo("through-p4");
        assertThat(p4.status().peers()).hasSize(4);
        assertThatThrownBy(() -> get(servers.get(leader).addPeer(new CatalogConfig.Peer("p4", "127.0.0.1", 1))))
                .hasRootCauseInstanceOf(IllegalArgumentException.class).rootCause().hasMessageContaining("already");

        // Remove a follower other than p4, stop it: the other three commit on.
        int removed = 3 - leader - follower;
        String removedId = "p" + (removed + 1);
        List<CatalogMember> after = get(servers.get(leader).removePeer(removedId));
        assertThat(ids(after)).doesNotContain(removedId).hasSize(3);
        servers.get(removed).close();
        servers.set(removed, null);
        put(servers.get(leader()).catalog(), "after-removal");
        assertThatThrownBy(() -> get(servers.get(leader()).removePeer("p9")))
                .hasRootCauseInstanceOf(IllegalArgumentException.class).rootCause().hasMessageContaining("no catalog peer p9");

        // One of the two followers left stops; removing the other would need 2 of 3 acknowledgements from 1.
        int now = leader();
        List<Integer> followers = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            if (servers.get(i) != null && i != now) {
                followers.add(i);
            }
        }
        assertThat(followers).hasSize(2);
        servers.get(followers.get(0)).close();
        servers.set(followers.get(0), null);
        String stopped = "p" + (followers.get(0) + 1);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (get(servers.get(now).members()).stream().noneMatch(m -> m.id().equals(stopped)
                && m.lastContactMillis() > 1000)) {
            assertThat(System.nanoTime()).as("the leader notices %s is gone", stopped).isLessThan(deadline);
            Thread.sleep(100);
        }
        String other = "p" + (followers.get(1) + 1);
        assertThatThrownBy(() -> get(servers.get(now).removePeer(other)))
                .hasRootCauseInstanceOf(IllegalArgumentException.class).rootCause()
                .hasMessageContaining("bring a peer back first");
        assertThat(ids(get(servers.get(now).members()))).contains(other, stopped);
    }

    /**
     * A one-peer group's leader repairs at once (no other leader can have calls in flight); once the group has
     * grown, the same running coordinator must wait out the takeover delay like any other leader.
     */
    @Test
    void aLeaderWhoseGroupGrewWaitsOutTheTakeoverDelay() throws Exception {
        List<Integer> ports = FreePorts.loopback(2);
        CatalogServer first = start(0, CatalogTestPeers.peersSpec(ports.subList(0, 1)));
        leader();
        LeaderTenure tenure = LeaderTenure.of(first, Duration.ofHours(1));
        assertThat(tenure.getAsBoolean()).as("alone: no delay").isTrue();

        start(1, CatalogTestPeers.peersSpec(ports));
        get(first.addPeer(new CatalogConfig.Peer("p2", "127.0.0.1", ports.get(1))));
        assertThat(first.isLeader()).isTrue();
        assertThat(tenure.getAsBoolean()).as("two peers: the hour's delay applies").isFalse();
    }

    @Test
    void theLastPeerIsNotRemoved() throws Exception {
        CatalogServer only = start(0, CatalogTestPeers.peersSpec(FreePorts.loopback(1)));
        leader();
        assertThatThrownBy(() -> get(only.removePeer("p1"))).isInstanceOf(ExecutionException.class)
                .hasRootCauseInstanceOf(IllegalArgumentException.class).rootCause().hasMessageContaining("last peer");
        assertThat(ids(get(only.members()))).containsExactly("p1");
    }
}
