package io.shardvault.coordinator.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.testing.FreePorts;
import io.shardvault.coordinator.catalog.internal.RatisCatalogServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/DEPLOYMENT.md's "Backing up the catalog", done as an operator would and then restored onto a new
 * host (another data directory, another port, the same peer id): a one-peer catalog takes a snapshot, its
 * snapshot directory (and, in the second case, its whole {@code ratis/} directory with the Raft log) is
 * copied off, the original is destroyed, and a peer started on the copy serves what it held and takes new
 * writes, also after another restart.
 */
@Timeout(120)
class CatalogRestoreTest {
    private static final FileLayout LAYOUT = new FileLayout(4, 2, 65536);
    private static final int BEFORE_SNAPSHOT = 40;
    private static final int AFTER_SNAPSHOT = 10;

    @TempDir
    Path dir;
    private CatalogServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private CatalogServer start(Path dataDir) throws Exception {
        List<Integer> ports = FreePorts.loopback(1);
        // Snapshots only when asked: the backup is of the one takeSnapshot() took.
        return RatisCatalogServer.start(CatalogTestPeers.config("p1", CatalogTestPeers.peersSpec(ports), dataDir,
                1_000_000), new SimpleMeterRegistry());
    }

    private static void put(Catalog catalog, int from, int to) throws Exception {
        for (int n = from; n < to; n++) {
            catalog.putObjectVersion(PutObjectVersion.of("restore", "key-" + n, "e" + n, ObjectMetadata.EMPTY,
                    new FileRef(1, n, 10, LAYOUT, List.of()))).get(30, TimeUnit.SECONDS);
        }
    }

    private static List<String> keys(Catalog catalog) throws Exception {
        ObjectListing listing = catalog.listObjects(ListObjectsQuery.of("restore", "", 1000)).get(30, TimeUnit.SECONDS);
        assertThat(listing.truncated()).isFalse();
        return listing.objects().stream().map(ObjectVersion::key).toList();
    }

    private static List<String> expected(int count) {
        List<String> keys = new ArrayList<>();
        for (int n = 0; n < count; n++) {
            keys.add("key-" + n);
        }
        keys.sort(Comparator.naturalOrder());
        return keys;
    }

    /**
     * Writes to a catalog in {@code original}, snapshots it and copies the snapshot's directory to
     * {@code offsite} (steps 1 and 2 of the backup), writes more, stops it; returns the snapshot's path relative
     * to {@code original}.
     */
    private Path backedUpCatalogWithLaterWrites(Path original, Path offsite) throws Exception {
        server = start(original);
        Catalog catalog = server.catalog();
        catalog.createBucket("restore", "AK", false).get(60, TimeUnit.SECONDS);
        put(catalog, 0, BEFORE_SNAPSHOT);
        long index = server.takeSnapshot().get(60, TimeUnit.SECONDS);
        Path snapshot = snapshotAt(original, index);
        copyTree(snapshot, offsite);
        put(catalog, BEFORE_SNAPSHOT, BEFORE_SNAPSHOT + AFTER_SNAPSHOT);
        server.close();
        server = null;
        return original.relativize(snapshot);
    }

    @Test
    void aCopiedSnapshotRestoresTheCatalogAsOfTheSnapshot() throws Exception {
        Path original = dir.resolve("original");
        Path offsite = dir.resolve("offsite");
        Path snapshot = backedUpCatalogWithLaterWrites(original, offsite);
        deleteTree(original);

        // The restore: the new host's peer started once on an empty dataDir (Ratis formats its storage
        // there, clearing anything already in sm/), stopped, the copy put into its sm/, started again.
        Path restored = dir.resolve("new-host");
        server = start(restored);
        server.close();
        server = null;
        copyTree(offsite, restored.resolve(snapshot));
        server = start(restored);
        Catalog catalog = server.catalog();
        assertThat(keys(catalog)).isEqualTo(expected(BEFORE_SNAPSHOT));

        put(catalog, BEFORE_SNAPSHOT, BEFORE_SNAPSHOT + AFTER_SNAPSHOT);
        assertThat(keys(catalog)).isEqualTo(expected(BEFORE_SNAPSHOT + AFTER_SNAPSHOT));
        server.close();
        server = start(restored);
        assertThat(keys(server.catalog())).isEqualTo(expected(BEFORE_SNAPSHOT + AFTER_SNAPSHOT));
    }

    @Test
    void aSnapshotPutIntoANeverStartedDirectoryIsRefusedNotDeleted() throws Exception {
        Path original = dir.resolve("original");
        Path offsite = dir.resolve("offsite");
        Path snapshot = backedUpCatalogWithLaterWrites(original, offsite);

        // Ratis would format this group directory, clearing sm/: the peer would start with an empty catalog.
        Path restored = dir.resolve("new-host");
        copyTree(offsite, restored.resolve(snapshot));
        assertThatThrownBy(() -> start(restored)).isInstanceOf(IOException.class)
                .hasMessageContaining("no Raft storage").hasMessageContaining("start this peer once");
        assertThat(restored.resolve(snapshot)).isDirectory();
    }

    @Test
    void aCopiedRatisDirectoryRestoresEveryCommittedEntry() throws Exception {
        Path original = dir.resolve("original");
        Path snapshot = backedUpCatalogWithLaterWrites(original, dir.resolve("unused"));
        Path ratis = snapshot.getName(0);
        assertThat(ratis).hasToString("ratis");
        Path offsite = dir.resolve("offsite");
        copyTree(original.resolve(ratis), offsite);
        deleteTree(original);

        Path restored = dir.resolve("new-host");
        copyTree(offsite, restored.resolve(ratis));
        server = start(restored);
        assertThat(keys(server.catalog())).isEqualTo(expected(BEFORE_SNAPSHOT + AFTER_SNAPSHOT));
        put(server.catalog(), BEFORE_SNAPSHOT + AFTER_SNAPSHOT, BEFORE_SNAPSHOT + AFTER_SNAPSHOT + 1);
        assertThat(keys(server.catalog())).hasSize(BEFORE_SNAPSHOT + AFTER_SNAPSHOT + 1);
    }

    /** {@code dataDir/ratis/<group uuid>/sm/snapshot.<term>_<index>}, where the docs send the operator. */
    private static Path snapshotAt(Path dataDir, long index) throws IOException {
        try (Stream<Path> all = Files.walk(dataDir)) {
            List<Path> found = all.filter(Files::isDirectory)
                    .filter(p -> p.getFileName().toString().matches("snapshot\\.\\d+_" + index))
                    .filter(p -> p.getParent().getFileName().toString().equals("sm"))
                    .filter(p -> dataDir.relativize(p).getName(0).toString().equals("ratis"))
                    .toList();
            assertThat(found).as("ratis/<group>/sm/snapshot.<term>_" + index + " under " + dataDir).hasSize(1);
            return found.get(0);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }
}
