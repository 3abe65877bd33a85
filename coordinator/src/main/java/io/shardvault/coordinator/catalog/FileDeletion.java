package io.shardvault.coordinator.catalog;

import java.util.Objects;

/**
 * A file no catalog entry refers to any more, queued for its shards to be deleted from the pods.
 *
 * @param id its place in the deletion queue; pass it to {@link Catalog#ackFileDeletions} once done
 * @param file the file
 */
public record FileDeletion(long id, FileRef file) {
    public FileDeletion {
        Objects.requireNonNull(file, "file");
    }
}
