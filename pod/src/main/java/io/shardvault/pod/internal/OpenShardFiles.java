package io.shardvault.pod.internal;

import io.shardvault.common.ShardId;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The shard files a {@link ShardStore} keeps open, each with its parsed layout, so that a read of a
 * recently read or written shard neither opens, scans nor closes its file: those were about a fifth of
 * a pod's CPU per chunk read (issue #18).
 *
 * <h2>Why a cached entry is never stale</h2>
 * An entry is added, replaced or removed only by a holder of the shard's lock
 * ({@link ShardStore#lockFor}), the lock every change of the file is made under, and every change
 * (an append, a delete, a restore's rename, a failed write) replaces or removes the entry before that
 * lock is released. So a read that starts after a change returned finds the new entry or none. A read
 * that started before may finish on the old one: its handle and its layout were taken together, and
 * a shard file only ever grows past its layout's valid end (or is unlinked or renamed over, which an
 * open handle survives), so it reads the shard exactly as it was before the change.
 *
 * <h2>Closing</h2>
 * An entry is reference-counted: the cache holds one reference while it maps the entry, each reader
 * one while it reads. The file is closed by whoever drops the last one, so an entry evicted or
 * invalidated under a reader is closed when that reader is done, never under it.
 *
 * <h2>Bound</h2>
 * At most {@code capacity} entries, least recently used evicted first; 0 caches nothing (every read
 * opens and closes its file, as before). Open files: {@code capacity}, plus at most one per thread
 * still reading an entry evicted meanwhile. After {@link #close} nothing more is cached.
 *
 * <p>Thread-safe.
 */
final class OpenShardFiles implements AutoCloseable {

    /** One open shard file and its layout, as of the handle's opening or its last write through the store. */
    static final class Handle {
        private final TomeFile file;
        private final Path path;
        private final ShardFile.Layout layout;
        private final AtomicInteger refs = new AtomicInteger(1);

        private Handle(TomeFile file, Path path, ShardFile.Layout layout) {
            this.file = file;
            this.path = path;
            this.layout = layout;
        }

        TomeFile file() {
            return file;
        }

        Path path() {
            return path;
        }

        ShardFile.Layout layout() {
            return layout;
        }

        /** Drops one reference; the last one closes the file. Call exactly once per reference held. */
        void release() {
            int left = refs.decrementAndGet();
            if (left == 0) {
                try {
                    file.close();
                } catch (IOException e) {
                    LoggerFactory.getLogger(OpenShardFiles.class).warn("closing {} failed: {}", path, e.toString());
                }
            } else if (left < 0) {
                throw new IllegalStateException("handle of " + path + " released once too often");
            }
        }

        /** Open references: the cache's while it maps the handle, and each reader's. For tests. */
        int references() {
            return refs.get();
        }
    }

    private final int capacity;
    /** In access order: the first entry is the least recently used. Guarded by {@code this}. */
    private final LinkedHashMap<ShardId, Handle> entries;
    private boolean closed;

    OpenShardFiles(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must be >= 0: " + capacity);
        }
        this.capacity = capacity;
        this.entries = new LinkedHashMap<>(16, 0.75f, true);
    }

    /** The shard's cached handle with a reference taken for the caller, who releases it; null when none. */
    Handle acquire(ShardId id) {
        synchronized (this) {
            Handle h = entries.get(id);
            if (h != null) {
                h.refs.incrementAndGet();
            }
            return h;
        }
    }

    /**
     * Caches an open file and its layout for the shard, replacing (and releasing) any entry it had, and
     * returns its handle with a reference taken for the caller, who releases it. The caller holds the
     * shard's lock and gives up the file: the handle closes it. A cache that is closed, or of capacity 0,
     * or told not to {@code keep}, keeps nothing: the handle is the caller's alone.
     */
    Handle put(ShardId id, TomeFile file, Path path, ShardFile.Layout layout, boolean keep) {
        Handle h = new Handle(file, path, layout);
        List<Handle> dropped = new ArrayList<>(2);
        synchronized (this) {
            Handle old = entries.remove(id);
            if (old != null) {
                dropped.add(old);
            }
            if (keep && !closed && capacity > 0) {
                h.refs.incrementAndGet();
                entries.put(id, h);
                Iterator<Handle> eldest = entries.values().iterator();
                while (entries.size() > capacity) {
                    dropped.add(eldest.next());
                    eldest.remove();
                }
            }
        }
        dropped.forEach(Handle::release);
        return h;
    }

    /** Forgets the shard's entry, if any; its file closes once no reader holds it. The caller holds the shard's lock. */
    void invalidate(ShardId id) {
        Handle old;
        synchronized (this) {
            old = entries.remove(id);
        }
        if (old != null) {
            old.release();
        }
    }

    /** Entries cached now. */
    synchronized int size() {
        return entries.size();
    }

    /** Forgets every entry (their files close once no reader holds them) and caches nothing from now on. */
    @Override
    public void close() {
        List<Handle> dropped;
        synchronized (this) {
            closed = true;
            dropped = new ArrayList<>(entries.values());
            entries.clear();
        }
        dropped.forEach(Handle::release);
    }
}
