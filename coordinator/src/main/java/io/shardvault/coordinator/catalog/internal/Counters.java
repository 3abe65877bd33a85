package io.shardvault.coordinator.catalog.internal;

/**
 * The {@link Table#COUNTERS} rows the subjects share: id counters (bucket ids, file ids per vault,
 * deletion seq) and usage counters kept in the same batch as the change they count.
 */
final class Counters {
    static final byte[] USED_BYTES = Keys.utf8("usedBytes");
    static final byte[] LIVE_FILES = Keys.utf8("liveFiles");

    private Counters() {
    }

    static byte[] bucketBytes(int bucketId) {
        return Keys.utf8("bucketBytes/" + bucketId);
    }

    static byte[] bucketVersions(int bucketId) {
        return Keys.utf8("bucketVersions/" + bucketId);
    }

    static byte[] bucketQuota(int bucketId) {
        return Keys.utf8("bucketQuota/" + bucketId);
    }

    static void addToCounter(Entry e, byte[] name, long delta) {
        nextCounter(e, name, 0, delta);
    }

    static long counter(RocksCatalogStore.Reads r, byte[] name) {
        byte[] raw = r.get(Table.COUNTERS, name);
        return raw == null ? 0 : Wire.u64(raw);
    }

    /** Returns the counter's value (starting at {@code initial}) and advances it by {@code by}. */
    static long nextCounter(Entry e, byte[] name, long initial, long by) {
        byte[] raw = e.txn().get(Table.COUNTERS, name);
        long value = raw == null ? initial : Wire.u64(raw);
        e.txn().put(Table.COUNTERS, name, Wire.u64(Math.addExact(value, by)));
        return value;
    }
}
