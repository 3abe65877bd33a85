package io.shardvault.stash.internal;

import io.netty.buffer.ByteBuf;
import io.shardvault.common.ShardId;
import io.shardvault.stash.api.StashEntryInfo;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The stash's storage engine, as narrow as the stash needs it: atomic batches of puts and
 * deletes (synced at once, or written now and synced later so that a sync overlaps the next
 * write), point reads, and key-ordered scans of one pod slot. {@link RocksShardStore} is the one
 * implementation; nothing outside it sees RocksDB.
 *
 * <p>Implementations are thread-safe: reads may run concurrently with each other and with a
 * commit. After {@link #close()} every method fails.
 */
public interface ShardStore extends AutoCloseable {

    /** One change in a {@link #commit} batch. */
    sealed interface Mutation permits Put, Delete {
        ShardId id();
    }

    /**
     * Store an entry.
     *
     * @param chunkValue the {@link EntryFormat} chunk value, its readable bytes; the caller keeps
     *     ownership and may release it once {@link #write} or {@link #commit} returned
     */
    record Put(StashEntryInfo info, ByteBuf chunkValue) implements Mutation {
        @Override
        public ShardId id() {
            return info.id();
        }
    }

    /** Delete an entry; deleting an absent entry is fine. */
    record Delete(ShardId id) implements Mutation {
    }

    /**
     * Applies the mutations, in order, atomically, and returns only once they are durable (the WAL
     * synced).
     */
    void commit(List<Mutation> mutations) throws ShardStoreException;

    /**
     * Applies the mutations, in order, atomically, without waiting for durability: they are
     * visible to reads at once and durable after the next {@link #syncWal()} that starts after
     * this method returned.
     */
    void write(List<Mutation> mutations) throws ShardStoreException;

    /**
     * Makes every {@link #write} that returned before this call durable (fdatasyncs the WAL). May
     * run concurrently with {@link #write}; what those concurrent writes wrote may or may not be
     * covered.
     */
    void syncWal() throws ShardStoreException;

    /** The entry's meta, or empty when it is absent. */
    Optional<StashEntryInfo> meta(ShardId id) throws ShardStoreException;

    /** The metas of several entries, in the order of {@code ids}; empty where absent. */
    List<Optional<StashEntryInfo>> metas(List<ShardId> ids) throws ShardStoreException;

    /**
     * The raw chunk value of an entry ({@link EntryFormat}), or empty when it is absent.
     *
     * @throws CorruptEntryException when the storage engine's own checksums fail
     */
    Optional<byte[]> chunkValue(ShardId id) throws ShardStoreException;

    /**
     * Up to {@code limit} metas of pod slot {@code (vaultId, shardIndex)} in key order, starting
     * after {@code after} (exclusive) or at the slot's first entry.
     */
    List<StashEntryInfo> listSlot(int vaultId, int shardIndex, Optional<ShardId> after, int limit)
            throws ShardStoreException;

    /** Calls {@code visitor} with every entry's meta, in key order. */
    void forEachMeta(Consumer<StashEntryInfo> visitor) throws ShardStoreException;

    /**
     * Writes the index's memtables out to SST files. Never needed for durability (commits are
     * synced to the WAL); for tests and for operators who want a short WAL replay.
     */
    void flush() throws ShardStoreException;

    /** Where the data lives, for logs. */
    String describe();

    @Override
    void close();
}
