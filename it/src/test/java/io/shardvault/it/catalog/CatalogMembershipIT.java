package io.shardvault.it.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.it.process.ProcessCluster;
import io.shardvault.it.process.ProcessCluster.AdminRun;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Catalog membership through the admin CLI (issue #22 item 3), on real processes: three coordinators; {@code admin
 * catalog peers} lists them; a fourth coordinator, started with the four peers in its file, becomes a peer through
 * {@code admin catalog add-peer} and serves S3; a follower is removed with {@code admin catalog remove-peer} and
 * its process stopped, and the other three serve on; a removal that the answering peers could not commit is
 * refused with exit status 1 and a reason.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class CatalogMembershipIT {
    private static final Logger LOG = LoggerFactory.getLogger(CatalogMembershipIT.class);
    private static final String BUCKET = "members";
    private static final Duration ELECTION = Duration.ofSeconds(30);
    /** One row of {@code admin catalog peers}: PEER ADDRESS ROLE ... */
    private static final Pattern ROW = Pattern.compile("(?m)^(c\\d+)\\s+(\\S+)\\s+(LEADER|FOLLOWER|LISTENER)\\s");

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    private ProcessCluster cluster;

    @AfterEach
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** The peers and their roles an {@code admin catalog peers} run printed, as "id ROLE". */
    private static List<String> rows(AdminRun run) {
        List<String> out = new ArrayList<>();
        Matcher m = ROW.matcher(run.output());
        while (m.find()) {
            out.add(m.group(1) + " " + m.group(3));
        }
        return out;
    }

    private AdminRun admin(int via, String... args) throws Exception {
        AdminRun run = cluster.adminVia(via, args);
        LOG.info("admin {} through c{}: exit {}\n{}", String.join(" ", args), via + 1, run.exit(), run.output());
        return run;
    }

    private static void roundTrip(S3Client writer, S3Client reader, String key) {
        byte[] body = key.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        writer.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromBytes(body));
        assertThat(reader.getObjectAsBytes(b -> b.bucket(BUCKET).key(key)).asByteArray()).isEqualTo(body);
    }

    @Test
    void aPeerAddedAndAnotherRemovedThroughTheCliWhileTheCatalogServes() throws Exception {
        cluster = ProcessCluster.start(dir, SeveralCoordinatorsIT.threeCoordinators());
        int leader = cluster.catalogLeader(ELECTION);
        AdminRun peers = admin(0, "catalog", "peers");
        assertThat(peers.exit()).as(peers.output()).isZero();
        assertThat(rows(peers)).containsExactlyInAnyOrder("c1 " + role(0, leader), "c2 " + role(1, leader),
                "c3 " + role(2, leader));
        try (S3Client c1 = cluster.s3Client(0)) {
            c1.createBucket(b -> b.bucket(BUCKET));
        }

        // A fourth coordinator: its file names the four peers; it is ready once the group has it.
        int fourth = cluster.launchAddedCoordinator();
        AdminRun added = admin(leader == 0 ? 1 : 0, "catalog", "add-peer", cluster.peerSpec(fourth));
        assertThat(added.exit()).as(added.output()).isZero();
        assertThat(rows(added)).contains("c4 FOLLOWER").hasSize(4);
        cluster.awaitCoordinator(fourth);
        try (S3Client c4 = cluster.s3Client(fourth); S3Client c1 = cluster.s3Client(0)) {
            roundTrip(c4, c1, "through-c4");
            roundTrip(c1, c4, "read-through-c4");
        }

        // Remove a follower of the first three, then stop its process: the rest serve on.
        int removed = leader == 1 ? 2 : 1;
        AdminRun removal = admin(fourth, "catalog", "remove-peer", ProcessCluster.peerId(removed));
        assertThat(removal.exit()).as(removal.output()).isZero();
        assertThat(rows(removal)).hasSize(3).noneMatch(r -> r.startsWith(ProcessCluster.peerId(removed) + " "));
        cluster.stopCoordinator(removed);
        cluster.forgetCatalogPeer(removed);
        List<Integer> serving = new ArrayList<>(List.of(0, 1, 2, fourth));
        serving.remove(Integer.valueOf(removed));
        for (int w : serving) {
            for (int r : serving) {
                if (r != w) {
                    try (S3Client writer = cluster.s3Client(w); S3Client reader = cluster.s3Client(r)) {
                        roundTrip(writer, reader, "after-removal-" + w + "-" + r);
                    }
                }
            }
        }

        // Of three peers, one stopped: removing one of the other two would need two acknowledgements from one.
        int now = cluster.catalogLeader(ELECTION);
        List<Integer> followers = new ArrayList<>(serving);
        followers.remove(Integer.valueOf(now));
        cluster.stopCoordinator(followers.get(0));
        Thread.sleep(3_000); // beyond the election timeout (2 s): the leader counts the stopped peer as gone
        AdminRun refused = admin(now, "catalog", "remove-peer", ProcessCluster.peerId(followers.get(1)));
        assertThat(refused.exit()).as(refused.output()).isEqualTo(1);
        assertThat(refused.output()).contains("bring a peer back first");
        AdminRun still = admin(now, "catalog", "peers");
        assertThat(rows(still)).hasSize(3);
    }

    private static String role(int c, int leader) {
        return c == leader ? "LEADER" : "FOLLOWER";
    }
}
