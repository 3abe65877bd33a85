package io.shardvault.pod.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(30)
class FaultTomeIoTest {
    @TempDir
    Path dir;

    private static void write(TomeFile f, String text, long at) throws IOException {
        f.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII)), at);
    }

    @Test
    void aPowerLossKeepsWhatWasSyncedAndLosesTheRest() throws IOException {
        FaultTomeIo io = new FaultTomeIo();
        Path synced = dir.resolve("synced");
        Path unsyncedEntry = dir.resolve("unsynced-entry");
        Path appended = dir.resolve("appended");
        try (TomeFile f = io.open(synced, TomeIo.OpenMode.CREATE_NEW)) {
            write(f, "durable", 0);
            f.sync(7);
        }
        try (TomeFile f = io.open(appended, TomeIo.OpenMode.CREATE_NEW)) {
            write(f, "base", 0);
            f.sync(4);
        }
        io.syncDirectory(dir);
        try (TomeFile f = io.open(unsyncedEntry, TomeIo.OpenMode.CREATE_NEW)) {
            write(f, "synced but its name is not", 0);
            f.sync(10);
        }
        try (TomeFile f = io.open(appended, TomeIo.OpenMode.WRITE)) {
            write(f, "+lost", 4);
        }
        assertThat(io.isDurable(synced)).isTrue();
        assertThat(io.isDurable(appended)).isFalse();
        assertThat(io.isDurable(unsyncedEntry)).isFalse();

        io.powerLoss();

        assertThat(Files.readString(synced)).isEqualTo("durable");
        assertThat(Files.readString(appended)).isEqualTo("base");
        assertThat(Files.exists(unsyncedEntry)).isFalse();
        assertThatThrownBy(() -> io.open(synced, TomeIo.OpenMode.READ)).hasMessageContaining("lost power");
    }

    @Test
    void aRenameIsDurableOnlyAfterTheDirectorySync() throws IOException {
        FaultTomeIo io = new FaultTomeIo();
        Path target = dir.resolve("target");
        Files.writeString(target, "old");
        Path tmp = dir.resolve("tmp");
        try (TomeFile f = io.open(tmp, TomeIo.OpenMode.CREATE_NEW)) {
            write(f, "new", 0);
            f.sync(3);
        }
        io.replace(tmp, target);
        assertThat(io.isDurable(target)).isFalse();
        io.syncDirectory(dir);
        assertThat(io.isDurable(target)).isTrue();
        io.powerLoss();
        assertThat(Files.readString(target)).isEqualTo("new");
        assertThat(Files.exists(tmp)).isFalse();
    }
}
