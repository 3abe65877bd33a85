package io.shardvault.stash.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a stash data directory is laid out: how many partitions it has and where each partition's
 * database lives. The count is fixed when the directory is first used and recorded in it, because
 * an entry is found in the partition its id hashes to under that count: a later start with another
 * {@code stash.partitions} keeps the recorded count (and says so) instead of looking for entries in
 * the wrong database.
 *
 * <pre>
 * dataDir/stash.layout            text, one line: "partitions=N"   (written once, fsynced, renamed into place)
 * dataDir/partition-0/ .. partition-(N-1)/    one RocksDB database each
 * </pre>
 *
 * A directory written before partitions existed (RocksDB's {@code CURRENT} file directly in it,
 * no {@code stash.layout}) is one partition: the directory itself.
 *
 * @param partitionDirs the database directory of each partition, by index
 */
public record StashLayout(Path dataDir, List<Path> partitionDirs) {
    private static final Logger LOG = LoggerFactory.getLogger(StashLayout.class);
    static final String FILE = "stash.layout";
    private static final String KEY = "partitions=";
    private static final String PARTITION_PREFIX = "partition-";
    /** Far more than any machine has cores; a larger count in the file means the file is damaged. */
    static final int MAX_PARTITIONS = 256;

    public StashLayout {
        partitionDirs = List.copyOf(partitionDirs);
    }

    public int partitions() {
        return partitionDirs.size();
    }

    /**
     * Reads the layout of {@code dataDir}, or records one with {@code wanted} partitions when the
     * directory holds no stash yet.
     *
     * @throws ShardStoreException when the directory cannot be created or its layout file is unreadable
     */
    public static StashLayout open(Path dataDir, int wanted) throws ShardStoreException {
        if (wanted < 1 || wanted > MAX_PARTITIONS) {
            throw new IllegalArgumentException("partitions must be 1.." + MAX_PARTITIONS + ": " + wanted);
        }
        Path file = dataDir.resolve(FILE);
        try {
            Files.createDirectories(dataDir);
            if (Files.exists(file)) {
                int recorded = read(file);
                if (recorded != wanted) {
                    LOG.warn("stash.partitions={} not applied: {} was created with {} partitions and keeps them"
                            + " (entries are found by the count they were written with)", wanted, dataDir, recorded);
                }
                return partitioned(dataDir, recorded);
            }
            if (Files.exists(dataDir.resolve("CURRENT"))) {
                LOG.info("{} holds a single-database stash (no {}): serving it as one partition", dataDir, FILE);
                return new StashLayout(dataDir, List.of(dataDir));
            }
            // The layout file is written before any partition exists; partitions without it mean it was lost.
            try (Stream<Path> entries = Files.list(dataDir)) {
                List<Path> orphans = entries.filter(p -> p.getFileName().toString().startsWith(PARTITION_PREFIX))
                        .sorted().toList();
                if (!orphans.isEmpty()) {
                    throw new ShardStoreException("open layout of " + dataDir, FILE + " is missing but " + orphans
                            + " exist; restore it (\"" + KEY + "N\" with the count they were written with): the"
                            + " stash will not guess where its entries are");
                }
            }
            write(dataDir, file, wanted);
            return partitioned(dataDir, wanted);
        } catch (ShardStoreException e) {
            throw e;
        } catch (IOException e) {
            throw new ShardStoreException("open layout of " + dataDir, e.toString(), e);
        }
    }

    private static StashLayout partitioned(Path dataDir, int count) {
        List<Path> dirs = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            dirs.add(dataDir.resolve(PARTITION_PREFIX + i));
        }
        return new StashLayout(dataDir, dirs);
    }

    private static int read(Path file) throws IOException, ShardStoreException {
        String text = Files.readString(file, StandardCharsets.UTF_8).strip();
        if (text.startsWith(KEY)) {
            try {
                int count = Integer.parseInt(text.substring(KEY.length()));
                if (count >= 1 && count <= MAX_PARTITIONS) {
                    return count;
                }
            } catch (NumberFormatException e) {
                // reported below with the file's text
            }
        }
        throw new ShardStoreException("read " + file, "expected one line \"" + KEY + "N\" with N in 1.."
                + MAX_PARTITIONS + ", found \"" + text + "\"; the stash will not guess where its entries are");
    }

    /** Written beside, fsynced, renamed into place and the directory fsynced: a crash leaves no half a file. */
    private static void write(Path dataDir, Path file, int count) throws IOException {
        Path temp = dataDir.resolve(FILE + ".tmp");
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            channel.write(ByteBuffer.wrap((KEY + count + "\n").getBytes(StandardCharsets.UTF_8)));
            channel.force(true);
        }
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
        try (FileChannel directory = FileChannel.open(dataDir, StandardOpenOption.READ)) {
            directory.force(true);
        }
    }
}
