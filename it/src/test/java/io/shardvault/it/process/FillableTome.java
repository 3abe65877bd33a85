package io.shardvault.it.process;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pod's tome on a tmpfs of its own, which a test can fill up and grow back: a full disk under a live pod.
 * tmpfs rather than a loop-mounted ext4 image: both refuse a write with ENOSPC at {@code write(2)} (ext4's
 * delayed allocation reserves blocks then), but tmpfs needs no loop device (containers often have none) and
 * no mkfs, and it fills and heals in one remount each, with no data written: {@link #fill} shrinks it to what
 * it holds, {@link #grow} gives it its room back. Its pages live in memory, only as many as it holds.
 *
 * <p>Mounting takes root ({@link #canMount}). The mount is undone by {@link #close}, which {@link
 * ProcessCluster#close} calls for its tomes, on failure too.
 */
public final class FillableTome implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FillableTome.class);
    /** The size when not full: far more than a test writes; tmpfs takes memory only for what it holds. */
    private static final long ROOMY = 4L << 30;
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);
    /** Attempts at shrinking to what it holds while the pod writes: a shrink below that is refused (EINVAL). */
    private static final int FILL_ATTEMPTS = 20;

    private final Path dir;
    private final Path log;

    private FillableTome(Path dir, Path log) {
        this.dir = dir;
        this.log = log;
    }

    /** Whether this process may mount: root (CI runs as root). */
    public static boolean canMount() {
        try {
            return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** Mounts a roomy tmpfs on {@code dir} (created if missing); commands' output goes to {@code log}. */
    public static FillableTome mount(Path dir, Path log) throws IOException, InterruptedException, TimeoutException {
        Files.createDirectories(dir);
        FillableTome tome = new FillableTome(dir, log);
        tome.run("mount", "-t", "tmpfs", "-o", "size=" + ROOMY + ",mode=0700", "shardvault-tome", dir.toString());
        return tome;
    }

    /**
     * Fills the tome: its size becomes what it holds, so every write that needs a new page fails with ENOSPC
     * until a delete frees one or {@link #grow}. Returns the bytes it holds.
     */
    public long fill() throws IOException, InterruptedException, TimeoutException {
        for (int attempt = 1; ; attempt++) {
            FileStore store = Files.getFileStore(dir);
            long used = store.getTotalSpace() - store.getUnallocatedSpace();
            if (run(attempt == FILL_ATTEMPTS, "mount", "-o", "remount,size=" + Math.max(used, 4096), dir.toString())) {
                return used;
            }
        }
    }

    /** Gives the tome its room back. */
    public void grow() throws IOException, InterruptedException, TimeoutException {
        run("mount", "-o", "remount,size=" + ROOMY, dir.toString());
    }

    /** Unmounts, lazily when a process still holds a file open on it (a pod a failed test left running). */
    @Override
    public void close() {
        try {
            if (!run(false, "umount", dir.toString())) {
                run("umount", "-l", dir.toString());
            }
        } catch (IOException | TimeoutException e) {
            LOG.warn("could not unmount the tmpfs on {}: {}", dir, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warn("interrupted unmounting the tmpfs on {}", dir);
        }
    }

    private void run(String... command) throws IOException, InterruptedException, TimeoutException {
        run(true, command);
    }

    /** Runs {@code command}; true when it exits 0, an IOException when not and {@code mustSucceed}. */
    private boolean run(boolean mustSucceed, String... command) throws IOException, InterruptedException,
            TimeoutException {
        ServiceProcess p = ServiceProcess.exec(command[0], List.of(command), Map.of(), log);
        int exit = p.awaitExit(COMMAND_TIMEOUT);
        if (exit != 0 && mustSucceed) {
            throw new IOException(String.join(" ", command) + " exited " + exit + ": " + p.tail());
        }
        return exit == 0;
    }
}
