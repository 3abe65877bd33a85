package io.shardvault.pod.internal;

import java.io.Closeable;
import java.io.IOException;

/**
 * Makes everything written on a tome's file system durable in one call (syncfs(2)): file data,
 * inodes and directory entries. Held open for the tome's life, so that it reports a writeback error
 * that hit the file system at any time since the last call, whichever file it hit.
 *
 * <p>Thread-safe.
 */
public interface TomeSync extends Closeable {

    /**
     * Syncs the file system; an IOException means some write on it since the last call may be lost.
     *
     * @param files how many files the caller needs durable (a simulated disk charges a seek for each)
     * @param bytes how many bytes they hold
     */
    void sync(int files, long bytes) throws IOException;
}
