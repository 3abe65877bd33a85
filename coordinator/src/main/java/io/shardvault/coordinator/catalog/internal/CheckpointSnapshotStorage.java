package io.shardvault.coordinator.catalog.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.SnapshotInfo;
import org.apache.ratis.statemachine.SnapshotRetentionPolicy;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.impl.FileListSnapshotInfo;

/**
 * Snapshots as RocksDB checkpoints, one directory each under Ratis's state-machine directory:
 *
 * <pre>
 *  &lt;ratis storage&gt;/&lt;group&gt;/sm/snapshot.&lt;term&gt;_&lt;index&gt;/   a complete RocksDB (SSTs hard-linked from the live DB)
 *  &lt;ratis storage&gt;/&lt;group&gt;/sm/tmp.&lt;term&gt;_&lt;index&gt;/        a checkpoint being written; renamed when complete
 * </pre>
 *
 * The leader sends a snapshot's files (paths relative to the storage root) to a follower that
 * is behind the purged log; Ratis lands them in the same layout there and reinitializes the state
 * machine, which then copies the newest checkpoint over its live DB.
 *
 * <p>Thread-safe: the latest snapshot is published through a volatile field.
 */
final class CheckpointSnapshotStorage implements StateMachineStorage {
    private static final Pattern NAME = Pattern.compile("snapshot\\.(\\d+)_(\\d+)");

    private volatile Path smDir;
    private volatile FileListSnapshotInfo latest;

    @Override
    public void init(RaftStorage storage) throws IOException {
        smDir = storage.getStorageDir().getStateMachineDir().toPath();
        Files.createDirectories(smDir);
        reload();
    }

    /** Rescans the directory (after a snapshot install replaced it). */
    void reload() throws IOException {
        latest = scan();
    }

    private FileListSnapshotInfo scan() throws IOException {
        Path best = null;
        TermIndex bestTi = null;
        if (!Files.isDirectory(smDir)) {
            return null;
        }
        try (Stream<Path> s = Files.list(smDir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Matcher m = NAME.matcher(p.getFileName().toString());
                if (m.matches() && Files.isDirectory(p)) {
                    TermIndex ti = TermIndex.valueOf(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
                    if (bestTi == null || ti.getIndex() > bestTi.getIndex()) {
                        best = p;
                        bestTi = ti;
                    }
                }
            }
        }
        return best == null ? null : describe(best, bestTi);
    }

    private static FileListSnapshotInfo describe(Path dir, TermIndex ti) throws IOException {
        List<FileInfo> files = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : (Iterable<Path>) s.sorted()::iterator) {
                if (Files.isRegularFile(p) && !p.getFileName().toString().endsWith(".md5")) {
                    files.add(new FileInfo(p.toAbsolutePath(), null));
                }
            }
        }
        return new FileListSnapshotInfo(files, ti);
    }

    /** The directory of the latest snapshot, or null. */
    Path latestDir() {
        FileListSnapshotInfo l = latest;
        return l == null ? null : dirOf(l.getTermIndex());
    }

    private Path dirOf(TermIndex ti) {
        return smDir.resolve("snapshot." + ti.getTerm() + "_" + ti.getIndex());
    }

    /** Takes a checkpoint of {@code store} as the snapshot at {@code ti}. */
    void take(RocksCatalogStore store, TermIndex ti) throws IOException {
        Path target = dirOf(ti);
        if (Files.isDirectory(target)) {
            return;
        }
        Path tmp = smDir.resolve("tmp." + ti.getTerm() + "_" + ti.getIndex());
        deleteTree(tmp);
        store.checkpoint(tmp);
        Files.move(tmp, target, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        latest = describe(target, ti);
    }

    @Override
    public SnapshotInfo getLatestSnapshot() {
        return latest;
    }

    @Override
    public void format() {
    }

    @Override
    public void cleanupOldSnapshots(SnapshotRetentionPolicy policy) throws IOException {
        int keep = Math.max(1, policy.getNumSnapshotsRetained());
        List<Path> snapshots = new ArrayList<>();
        try (Stream<Path> s = Files.list(smDir)) {
            s.filter(p -> NAME.matcher(p.getFileName().toString()).matches()).forEach(snapshots::add);
        }
        snapshots.sort(Comparator.comparingLong((Path p) -> {
            Matcher m = NAME.matcher(p.getFileName().toString());
            return m.matches() ? Long.parseLong(m.group(2)) : -1;
        }).reversed());
        for (int i = keep; i < snapshots.size(); i++) {
            deleteTree(snapshots.get(i));
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
