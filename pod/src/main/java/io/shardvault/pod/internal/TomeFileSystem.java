package io.shardvault.pod.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Whether a tome lies on ext4 without a journal. There the inode allocator never reuses an inode freed
 * in the last 60 s (360 s while its inode table block is dirty), and it reads each such inode to skip
 * it, for every file it creates ({@code fs/ext4/ialloc.c}, {@code recently_deleted}). After a large
 * deletion (expiry, a retention sweep) each new shard file then costs up to about 0.6 ms more CPU, 31
 * times a creation with the journal (docs/PERFORMANCE.md, "Files deleted just before a run").
 *
 * <p>Linux only, from {@code /proc/self/mountinfo} and ext4's {@code /sys/fs/ext4/<device>/journal_task}
 * ({@code <none>} without a journal). Anything it cannot read answers empty: this is advice for the
 * operator, never a reason to refuse a tome.
 */
final class TomeFileSystem {
    private final Path mountinfo;
    private final Path sys;

    /** Reads this machine's {@code /proc} and {@code /sys}. */
    static TomeFileSystem linux() {
        return new TomeFileSystem(Path.of("/proc/self/mountinfo"), Path.of("/sys"));
    }

    TomeFileSystem(Path mountinfo, Path sys) {
        this.mountinfo = mountinfo;
        this.sys = sys;
    }

    /** The device name (as in {@code /sys/fs/ext4}) if {@code dir} is on ext4 without a journal. */
    Optional<String> ext4WithoutJournal(Path dir) {
        try {
            Optional<Mount> mount = mountOf(dir.toRealPath(), Files.readAllLines(mountinfo));
            if (mount.isEmpty() || !mount.get().type().equals("ext4")) {
                return Optional.empty();
            }
            // The kernel's name of the device (vda, sdb1, dm-0, loop0): /sys/fs/ext4's directory name.
            String device = sys.resolve("dev/block").resolve(mount.get().majorMinor()).toRealPath()
                    .getFileName().toString();
            Path journalTask = sys.resolve("fs/ext4").resolve(device).resolve("journal_task");
            return Files.readString(journalTask).strip().equals("<none>") ? Optional.of(device) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** One line of mountinfo: the device's major:minor, the mount point, the file system type. */
    record Mount(String majorMinor, Path point, String type) { }

    /** The mount holding {@code realDir}: the longest mount point it lies under (the last such line wins). */
    static Optional<Mount> mountOf(Path realDir, List<String> mountinfoLines) {
        Mount best = null;
        for (String line : mountinfoLines) {
            // id parent major:minor root point options [optional fields...] - type source super-options
            String[] f = line.split(" ");
            int dash = List.of(f).indexOf("-");
            if (f.length < 5 || dash < 0 || dash + 1 >= f.length) {
                continue;
            }
            Path point = Path.of(unescape(f[4]));
            if (realDir.startsWith(point)
                    && (best == null || point.getNameCount() >= best.point().getNameCount())) {
                best = new Mount(f[2], point, f[dash + 1]);
            }
        }
        return Optional.ofNullable(best);
    }

    /** mountinfo writes space, tab, newline and backslash in paths as three-digit octal escapes. */
    private static String unescape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 3 < s.length() && isOctal(s.substring(i + 1, i + 4))) {
                b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    private static boolean isOctal(String digits) {
        return digits.chars().allMatch(d -> d >= '0' && d <= '7');
    }
}
