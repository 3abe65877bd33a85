package io.shardvault.common.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.shardvault.common.nativelib.NativeLibraries;
import io.shardvault.common.nativelib.OsCalls;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FileSystemSyncTest {

    private static final boolean REQUIRED = "true".equalsIgnoreCase(System.getenv("SHARDVAULT_REQUIRE_NATIVE"));

    @Test
    void onlyKernelsFromFiveEightOnAreTrustedToReportWritebackErrors() {
        assertThat(FileSystemSync.reportsWritebackErrors("4.19.0-21-amd64")).isFalse();
        assertThat(FileSystemSync.reportsWritebackErrors("5.7.19")).isFalse();
        assertThat(FileSystemSync.reportsWritebackErrors("5.8.0")).isTrue();
        assertThat(FileSystemSync.reportsWritebackErrors("5.10.0-28-cloud-amd64")).isTrue();
        assertThat(FileSystemSync.reportsWritebackErrors("6.18.44-fc-v782")).isTrue();
        assertThat(FileSystemSync.reportsWritebackErrors("10.0")).isTrue();
        assertThat(FileSystemSync.reportsWritebackErrors("unknown")).isFalse();
    }

    @Test
    void loadsWhenRequired() {
        String resource = NativeLibraries.resourcePath(OsCalls.LIBRARY);
        if (REQUIRED) {
            assertThat(getClass().getClassLoader().getResource(resource))
                    .as("%s on the classpath (built by common/src/main/native/build.sh)", resource).isNotNull();
            assertThat(FileSystemSync.unavailableBecause()).isNull();
        }
    }

    @Test
    void syncsTheFileSystemOfADirectoryUntilClosed(@TempDir Path dir) throws IOException {
        assumeTrue(FileSystemSync.unavailableBecause() == null, FileSystemSync.unavailableBecause());
        Files.write(dir.resolve("a"), new byte[65536]);
        FileSystemSync sync = FileSystemSync.open(dir);
        sync.sync();
        sync.sync();
        sync.close();
        sync.close();
        assertThatThrownBy(sync::sync).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    void aMissingDirectoryIsAnIoErrorNamingIt(@TempDir Path dir) {
        assumeTrue(FileSystemSync.unavailableBecause() == null, FileSystemSync.unavailableBecause());
        Path missing = dir.resolve("absent");
        assertThatThrownBy(() -> FileSystemSync.open(missing)).isInstanceOf(IOException.class)
                .hasMessageContaining(missing.toString()).hasMessageContaining("errno 2");
    }
}
