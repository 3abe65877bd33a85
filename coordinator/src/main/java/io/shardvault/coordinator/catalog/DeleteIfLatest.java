package io.shardvault.coordinator.catalog;

import java.time.Instant;
import java.util.Objects;

/**
 * A delete that applies only while its key's newest version is still the one its caller saw: the
 * lifecycle expirer decides on a listing, and a PUT landing between that listing and the delete must not
 * be expired in its stead. The version is named by id and commit time, as the {@code null} version keeps
 * its id when it is replaced.
 *
 * @param delete the delete, as {@link Catalog#deleteObject(DeleteObjectVersion)} applies it
 * @param latestVersionId the id the key's newest version must have
 * @param latestModified the commit time the key's newest version must have
 */
public record DeleteIfLatest(DeleteObjectVersion delete, String latestVersionId, Instant latestModified) {
    public DeleteIfLatest {
        Objects.requireNonNull(delete, "delete");
        Objects.requireNonNull(latestVersionId, "latestVersionId");
        Objects.requireNonNull(latestModified, "latestModified");
    }
}
