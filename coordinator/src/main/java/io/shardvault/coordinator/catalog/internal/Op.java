package io.shardvault.coordinator.catalog.internal;

/**
 * The catalog's operations and their stable one-byte codes. Writes go through the Raft log;
 * reads are linearizable queries. Never renumber a code: log entries outlive builds.
 */
enum Op {
    CREATE_BUCKET(1, true),
    DELETE_BUCKET(2, true),
    SET_VERSIONING(3, true),
    SET_DEFAULT_RETENTION(4, true),
    PUT_OBJECT(5, true),
    DELETE_OBJECT(6, true),
    SET_RETENTION(7, true),
    SET_LEGAL_HOLD(8, true),
    CREATE_UPLOAD(9, true),
    PUT_PART(10, true),
    COMPLETE_UPLOAD(11, true),
    ABORT_UPLOAD(12, true),
    REGISTER_VAULT(13, true),
    REGISTER_POD(14, true),
    REGISTER_STASH(15, true),
    ALLOCATE_FILE_IDS(16, true),
    CREATE_ACCESS_KEY(17, true),
    DISABLE_ACCESS_KEY(18, true),
    ACK_DELETIONS(19, true),
    DELETE_OBJECTS(20, true),
    SET_POD_STATE(21, true),
    SET_BUCKET_QUOTA(22, true),
    SET_BUCKET_ACL(23, true),
    SET_OBJECT_ACL(24, true),

    GET_BUCKET(64, false),
    LIST_BUCKETS(65, false),
    GET_OBJECT(66, false),
    LIST_OBJECTS(67, false),
    LIST_VERSIONS(68, false),
    LIST_PARTS(69, false),
    LIST_UPLOADS(70, false),
    LIST_VAULTS(71, false),
    LIST_STASHES(72, false),
    LOOKUP_ACCESS_KEY(73, false),
    LIST_ACCESS_KEYS(74, false),
    PENDING_DELETIONS(75, false),
    /** Diagnostics: the applied index and a checksum over every table, taken from one RocksDB snapshot. */
    STATE_CHECKSUM(76, false),
    USAGE(77, false),
    LIST_POD_STATES(78, false),
    GET_BUCKET_ACL(79, false);

    private static final Op[] BY_CODE = new Op[128];

    static {
        for (Op op : values()) {
            BY_CODE[op.code] = op;
        }
    }

    final int code;
    final boolean write;

    Op(int code, boolean write) {
        this.code = code;
        this.write = write;
    }

    static Op of(int code) {
        Op op = code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
        if (op == null) {
            throw new IllegalArgumentException("unknown catalog op " + code);
        }
        return op;
    }
}
