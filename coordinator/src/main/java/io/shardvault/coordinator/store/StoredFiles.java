package io.shardvault.coordinator.store;

import io.shardvault.common.erasure.ErasureLayout;
import io.shardvault.coordinator.catalog.FileLayout;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.data.StoredFile;
import io.shardvault.coordinator.data.VaultLayout;

/**
 * Converts between the data paths' {@link StoredFile} and the catalog's {@link FileRef}. The
 * catalog does not record whether a file went to the stash; every single-stripe file is treated
 * as possibly stashed, which only means its stash copy may be tried on a degraded read and is
 * purged (idempotently) on delete. Stateless.
 */
public final class StoredFiles {
    private StoredFiles() {
    }

    public static FileRef toRef(StoredFile file) {
        VaultLayout layout = file.layout();
        return new FileRef(file.vaultId(), file.fileId(), file.size(),
                new FileLayout(layout.k(), layout.m(), layout.chunkBytes()), file.missingShards());
    }

    public static StoredFile fromRef(FileRef ref) {
        VaultLayout layout = new VaultLayout(new ErasureLayout(ref.layout().dataShards(), ref.layout().parityShards()),
                ref.layout().chunkBytes());
        boolean maybeStashed = ref.size() > 0 && layout.stripeCount(ref.size()) == 1;
        return new StoredFile(ref.vaultId(), ref.fileId(), ref.size(), layout, ref.missingShards(), maybeStashed);
    }
}
