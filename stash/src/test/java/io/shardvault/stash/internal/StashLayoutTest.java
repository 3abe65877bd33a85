package io.shardvault.stash.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StashLayoutTest {
    @TempDir
    Path dir;

    @Test
    void aNewDirectoryRecordsTheWantedCount() throws Exception {
        StashLayout layout = StashLayout.open(dir.resolve("new"), 3);
        assertThat(layout.partitionDirs()).containsExactly(dir.resolve("new/partition-0"),
                dir.resolve("new/partition-1"), dir.resolve("new/partition-2"));
        assertThat(Files.readString(dir.resolve("new/stash.layout"))).isEqualTo("partitions=3\n");
        assertThat(dir.resolve("new/stash.layout.tmp")).doesNotExist();
    }

    @Test
    void theRecordedCountWinsOverALaterSetting() throws Exception {
        StashLayout.open(dir, 2);
        assertThat(StashLayout.open(dir, 7).partitions()).isEqualTo(2);
        assertThat(StashLayout.open(dir, 1).partitions()).isEqualTo(2);
    }

    @Test
    void aSingleDatabaseDirectoryIsOnePartitionInPlace() throws Exception {
        Files.writeString(dir.resolve("CURRENT"), "MANIFEST-000001\n");
        StashLayout layout = StashLayout.open(dir, 4);
        assertThat(layout.partitionDirs()).isEqualTo(List.of(dir));
        assertThat(dir.resolve(StashLayout.FILE)).doesNotExist();
    }

    @Test
    void aDamagedLayoutFileStopsTheOpenNamingIt() throws Exception {
        for (String text : List.of("", "partitions=", "partitions=0", "partitions=9999", "partitions=two", "x=2")) {
            Files.writeString(dir.resolve(StashLayout.FILE), text);
            assertThatThrownBy(() -> StashLayout.open(dir, 2))
                    .as(text)
                    .isInstanceOf(ShardStoreException.class)
                    .hasMessageContaining(StashLayout.FILE)
                    .hasMessageContaining("will not guess");
        }
    }

    @Test
    void partitionsWithoutTheirLayoutFileStopTheOpen() throws Exception {
        StashLayout.open(dir, 2);
        Files.createDirectories(dir.resolve("partition-0"));
        Files.delete(dir.resolve(StashLayout.FILE));
        assertThatThrownBy(() -> StashLayout.open(dir, 3))
                .isInstanceOf(ShardStoreException.class)
                .hasMessageContaining(StashLayout.FILE + " is missing")
                .hasMessageContaining("partition-0");
        assertThat(dir.resolve(StashLayout.FILE)).doesNotExist();
    }

    @Test
    void aCountOutsideTheRangeIsRefused() {
        assertThatThrownBy(() -> StashLayout.open(dir, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StashLayout.open(dir, StashLayout.MAX_PARTITIONS + 1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
