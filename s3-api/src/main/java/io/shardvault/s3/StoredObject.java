package io.shardvault.s3;

import java.util.List;
import java.util.Optional;

/**
 * One resolved object version of a GetObject: its metadata, from which the server evaluates the
 * conditional headers and the range, and a way to open the bytes it decided to send.
 * Holds no resources until {@link #open} is called.
 */
public interface StoredObject {
    ObjectInfo info();

    /**
     * Opens {@code length} bytes from {@code offset} (both within the object; the server has resolved
     * the Range header). Called at most once.
     */
    ObjectContent open(long offset, long length);

    /**
     * Where part {@code partNumber} (1..10000) of this version is, for GetObject and HeadObject with
     * {@code partNumber}: a multipart object's parts in the order they were completed; a simple object
     * has one part, itself. Empty when there is no such part.
     *
     * <p>The default knows simple objects only; a store holding multipart objects overrides it.
     *
     * @throws UnsupportedOperationException for a multipart object when the store cannot say (answered
     *     {@code NotImplemented})
     */
    default Optional<ObjectRange> part(int partNumber) {
        ObjectInfo info = info();
        if (info.partsCount() > 0) {
            throw new UnsupportedOperationException("this store does not know its objects' part boundaries");
        }
        return partNumber == 1 ? Optional.of(new ObjectRange(0, info.size())) : Optional.empty();
    }

    /**
     * The part ranges of a version from its part sizes in order (a simple object: one size and
     * {@code partsCount} 0), as {@link #part} answers them.
     */
    static Optional<ObjectRange> partOf(List<Long> partSizes, int partNumber) {
        if (partNumber < 1 || partNumber > partSizes.size()) {
            return Optional.empty();
        }
        long offset = 0;
        for (int i = 0; i < partNumber - 1; i++) {
            offset += partSizes.get(i);
        }
        return Optional.of(new ObjectRange(offset, partSizes.get(partNumber - 1)));
    }
}
