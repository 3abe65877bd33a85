package io.shardvault.pod.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Telling a tome on ext4 without a journal, whose file creations get slow after large deletions. */
class TomeFileSystemTest {
    @TempDir
    Path dir;

    private static final List<String> MOUNTINFO = List.of(
            "22 27 0:21 / /proc rw,relatime - proc proc rw",
            "27 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw,discard",
            "40 27 8:17 / /srv/tomes/disk\\0401 rw,noatime shared:7 master:2 - xfs /dev/sdb1 rw",
            "41 27 8:33 / /srv/tomes/disk2 rw,noatime - ext4 /dev/sdc1 rw",
            "42 41 0:50 / /srv/tomes/disk2 rw - tmpfs tmpfs rw");

    @Test
    void theLongestMountPointHoldingTheDirectoryWinsAndTheLastOfEqualOnes() {
        assertThat(TomeFileSystem.mountOf(Path.of("/var/lib/x"), MOUNTINFO))
                .contains(new TomeFileSystem.Mount("254:0", Path.of("/"), "ext4"));
        assertThat(TomeFileSystem.mountOf(Path.of("/srv/tomes/disk 1/v0"), MOUNTINFO))
                .contains(new TomeFileSystem.Mount("8:17", Path.of("/srv/tomes/disk 1"), "xfs"));
        // Mounted over: the later line is the mount on top.
        assertThat(TomeFileSystem.mountOf(Path.of("/srv/tomes/disk2/t"), MOUNTINFO))
                .contains(new TomeFileSystem.Mount("0:50", Path.of("/srv/tomes/disk2"), "tmpfs"));
        // A path component, not a string prefix.
        assertThat(TomeFileSystem.mountOf(Path.of("/procfoo"), MOUNTINFO).orElseThrow().point())
                .isEqualTo(Path.of("/"));
    }

    @Test
    void ext4IsWithoutAJournalWhenItsJournalTaskSaysNone() throws IOException {
        Path tome = Files.createDirectories(dir.resolve("tome")).toRealPath();
        Path sys = fakeSys("vda", "<none>\n");
        assertThat(fileSystem(tome, "ext4", sys).ext4WithoutJournal(tome)).contains("vda");
        assertThat(fileSystem(tome, "ext4", fakeSys("vdb", "1234\n")).ext4WithoutJournal(tome)).isEmpty();
        assertThat(fileSystem(tome, "xfs", sys).ext4WithoutJournal(tome)).isEmpty();
        // Whatever cannot be read answers no, never an error: the check only advises.
        assertThat(new TomeFileSystem(dir.resolve("no-mountinfo"), sys).ext4WithoutJournal(tome)).isEmpty();
        assertThat(fileSystem(tome, "ext4", dir.resolve("no-sys")).ext4WithoutJournal(tome)).isEmpty();
    }

    /** A real loop-mounted ext4 with and without its journal, where root may mount one (CI runs as root). */
    @Test
    void aRealExt4WithAndWithoutItsJournal() throws Exception {
        assumeTrue(Files.isWritable(Path.of("/dev/loop-control")) && Files.isExecutable(Path.of("/usr/sbin/mkfs.ext4")),
                "needs root, a loop device and mkfs.ext4");
        assertThat(mountedExt4("nojournal", "-O", "^has_journal")).isTrue();
        assertThat(mountedExt4("journal")).isFalse();
    }

    private boolean mountedExt4(String name, String... mkfsOptions) throws Exception {
        Path image = dir.resolve(name + ".img");
        Path point = Files.createDirectories(dir.resolve(name));
        try (RandomAccessFile file = new RandomAccessFile(image.toFile(), "rw")) {
            file.setLength(64L << 20);
        }
        List<String> mkfs = new ArrayList<>(List.of("/usr/sbin/mkfs.ext4", "-q", "-F"));
        mkfs.addAll(List.of(mkfsOptions));
        mkfs.add(image.toString());
        run(mkfs);
        assumeTrue(run(List.of("mount", "-o", "loop", image.toString(), point.toString())) == 0,
                "this machine would not loop-mount an image");
        try {
            Path tome = Files.createDirectories(point.resolve("tome"));
            return TomeFileSystem.linux().ext4WithoutJournal(tome).isPresent();
        } finally {
            run(List.of("umount", point.toString()));
        }
    }

    private static int run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
        return p.exitValue();
    }

    private TomeFileSystem fileSystem(Path tome, String type, Path sys) throws IOException {
        Path mountinfo = dir.resolve("mountinfo-" + type + "-" + sys.getFileName());
        Files.write(mountinfo, List.of("27 1 254:0 / / rw - ext4 /dev/vda rw",
                "50 27 254:16 / " + tome + " rw,relatime shared:3 - " + type + " /dev/vdx rw"));
        return new TomeFileSystem(mountinfo, sys);
    }

    /** /sys as the kernel lays it out: dev/block/MAJ:MIN a link to the device, fs/ext4/NAME/journal_task. */
    private Path fakeSys(String device, String journalTask) throws IOException {
        Path sys = Files.createDirectories(dir.resolve("sys-" + device));
        Path devices = Files.createDirectories(sys.resolve("devices/virtual/block").resolve(device));
        Files.createDirectories(sys.resolve("dev/block"));
        Files.createSymbolicLink(sys.resolve("dev/block/254:16"),
                Path.of("../../devices/virtual/block").resolve(device));
        assertThat(sys.resolve("dev/block/254:16").toRealPath()).isEqualTo(devices.toRealPath());
        Files.writeString(Files.createDirectories(sys.resolve("fs/ext4").resolve(device)).resolve("journal_task"),
                journalTask);
        return sys;
    }
}
