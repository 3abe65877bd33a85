package io.shardvault.s3;

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
}
