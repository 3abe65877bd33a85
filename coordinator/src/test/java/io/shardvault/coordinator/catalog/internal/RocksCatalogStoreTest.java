package io.shardvault.coordinator.catalog.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.coordinator.catalog.CatalogStoreOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class RocksCatalogStoreTest {
    private static final long BUDGET = 2L << 20;

    @TempDir
    Path dir;

    /**
     * 24 MiB written to two tables under a 2 MiB memtable budget: RocksDB flushes as the budget
     * fills, so the memtables end near the budget and the bytes are in SST files. (Per-table
     * memtables of 128 MiB, as before, would hold all of it in memory.)
     */
    @Test
    void memtablesStayWithinTheBudget() throws Exception {
        byte[] value = new byte[4096];
        Arrays.fill(value, (byte) 7);
        try (RocksCatalogStore store = RocksCatalogStore.open(dir, new CatalogStoreOptions(BUDGET, 1L << 20))) {
            long index = 0;
            for (int txn = 0; txn < 96; txn++) {
                try (RocksCatalogStore.Txn t = store.begin()) {
                    for (int i = 0; i < 64; i++) {
                        Table table = i % 2 == 0 ? Table.VERSIONS : Table.FILES;
                        t.put(table, Keys.utf8("key-" + txn + "-" + i), value);
                    }
                    t.commit(1, index++);
                }
            }
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (store.memtableBytes() > 2 * BUDGET && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(store.memtableBytes()).isLessThanOrEqualTo(2 * BUDGET);
            try (Stream<Path> files = Files.list(dir)) {
                assertThat(files.filter(f -> f.getFileName().toString().endsWith(".sst"))).isNotEmpty();
            }
            try (RocksCatalogStore.View v = store.view()) {
                assertThat(v.get(Table.FILES, Keys.utf8("key-0-1"))).isEqualTo(value);
            }
        }
    }
}
