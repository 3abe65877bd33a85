package io.shardvault.coordinator.catalog.internal;

import io.shardvault.common.ErrorCode;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import org.rocksdb.RocksIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies one catalog log entry to the store in one atomic batch: decodes the entry header,
 * answers a request id already seen with its stored result (so a retried write is applied at most
 * once), otherwise runs the operation, records its result under the request id, prunes old request
 * ids now and then, and commits together with the applied {@code (term, index)}.
 *
 * <p>Deterministic: a function of the store, the entry bytes and its index. Stateless; the
 * store's single-writer rule applies.
 */
final class EntryApplier {
    private static final Logger LOG = LoggerFactory.getLogger(EntryApplier.class);

    /**
     * How long a write's result is kept by request id. A constant, not a setting: the pruning is
     * part of the replicated state, and every peer must prune alike.
     */
    static final Duration DEDUP_WINDOW = Duration.ofMinutes(10);
    static final int PRUNE_EVERY = 256;
    private static final int PRUNE_MAX = 4096;

    private EntryApplier() {
    }

    /** Applies the entry and returns its encoded result; a failure of RocksDB itself throws. */
    static byte[] apply(RocksCatalogStore store, long term, long index, byte[] data, Runnable onDuplicate)
            throws IOException {
        try (RocksCatalogStore.Txn txn = store.begin()) {
            byte[] result;
            Instant time = Instant.EPOCH;
            try {
                Wire.Reader in = new Wire.Reader(data);
                int format = in.u8();
                if (format != Codec.FORMAT) {
                    throw new IllegalArgumentException("log entry format " + format + " unknown");
                }
                time = Instant.ofEpochMilli(in.i64());
                Op op = Op.of(in.u8());
                byte[] requestId = in.raw(16);
                boolean dedup = !allZero(requestId);
                byte[] prior = dedup ? txn.get(Table.REQUESTS, requestId) : null;
                if (prior != null) {
                    onDuplicate.run();
                    result = prior;
                } else {
                    result = CommandDispatcher.applyWrite(op, in, new Entry(txn, index, time));
                    if (dedup) {
                        txn.put(Table.REQUESTS, requestId, result);
                    }
                }
            } catch (IllegalArgumentException e) {
                txn.discard();
                result = CommandDispatcher.error(ErrorCode.BAD_REQUEST, "malformed log entry: " + e.getMessage());
            } catch (RocksCatalogStore.StoreFailure e) {
                throw e;
            } catch (RuntimeException e) {
                // A bug in an operation: deterministic, so every peer lands here for this entry. Answer
                // INTERNAL and move on with the applied index rather than stall the group.
                LOG.error("catalog operation at log index {} failed; answering INTERNAL", index, e);
                txn.discard();
                result = CommandDispatcher.error(ErrorCode.INTERNAL, "catalog operation failed: " + e);
            }
            if (index % PRUNE_EVERY == 0) {
                pruneRequests(txn, time);
            }
            txn.commit(term, index);
            return result;
        }
    }

    private static boolean allZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    /** Forgets request ids older than the window, judged by the leader time in the entry. */
    private static void pruneRequests(RocksCatalogStore.Txn txn, Instant now) {
        long cutoff = now.minus(DEDUP_WINDOW).toEpochMilli();
        int n = 0;
        try (RocksIterator it = txn.iterator(Table.REQUESTS)) {
            for (it.seekToFirst(); it.isValid() && n < PRUNE_MAX; it.next(), n++) {
                byte[] k = it.key();
                if (new Wire.Reader(k, 0, 8).i64() >= cutoff) {
                    break;
                }
                txn.delete(Table.REQUESTS, k);
            }
        }
    }
}
