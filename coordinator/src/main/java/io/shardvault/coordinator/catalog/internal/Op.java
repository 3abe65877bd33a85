package io.shardvault.coordinator.catalog.internal;

import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardvaultException;
import io.shardvault.coordinator.catalog.CatalogException;

/**
 * The registry of the catalog's commands: each one's stable one-byte code and the handler of the subject
 * that owns it (buckets, object versions, uploads, the cluster map, accounts, access keys, file lifetimes, ACLs).
 * Writes ({@link Write}) go through the Raft log; reads ({@link Read}) are linearizable queries. A new
 * command is one line here plus its call and handler in its subject's file. Never renumber a code: log
 * entries outlive builds.
 */
enum Op {
    CREATE_BUCKET(1, Buckets::applyCreateBucket),
    DELETE_BUCKET(2, Buckets::applyDeleteBucket),
    SET_VERSIONING(3, Buckets::applySetVersioning),
    SET_DEFAULT_RETENTION(4, Buckets::applySetDefaultRetention),
    PUT_OBJECT(5, ObjectVersions::applyPutObject),
    DELETE_OBJECT(6, ObjectVersions::applyDeleteObject),
    SET_RETENTION(7, ObjectVersions::applySetRetention),
    SET_LEGAL_HOLD(8, ObjectVersions::applySetLegalHold),
    CREATE_UPLOAD(9, Uploads::applyCreateUpload),
    PUT_PART(10, Uploads::applyPutPart),
    COMPLETE_UPLOAD(11, Uploads::applyCompleteUpload),
    ABORT_UPLOAD(12, Uploads::applyAbortUpload),
    REGISTER_VAULT(13, ClusterMap::applyRegisterVault),
    REGISTER_POD(14, ClusterMap::applyRegisterPod),
    REGISTER_STASH(15, ClusterMap::applyRegisterStash),
    ALLOCATE_FILE_IDS(16, ClusterMap::applyAllocateFileIds),
    CREATE_ACCESS_KEY(17, AccessKeys::applyCreateAccessKey),
    DISABLE_ACCESS_KEY(18, AccessKeys::applyDisableAccessKey),
    ACK_DELETIONS(19, FileLifetimes::applyAckDeletions),
    DELETE_OBJECTS(20, ObjectVersions::applyDeleteObjects),
    SET_POD_STATE(21, ClusterMap::applySetPodState),
    SET_BUCKET_QUOTA(22, Buckets::applySetBucketQuota),
    SET_BUCKET_ACL(23, AclCommands::applySetBucketAcl),
    SET_OBJECT_ACL(24, AclCommands::applySetObjectAcl),
    REPAIR_ENQUEUE(25, RepairQueue::applyEnqueue),
    REPAIR_REMOVE(26, RepairQueue::applyRemove),
    COLLECT_FILES(27, OrphanFences::applyCollect),
    POD_REBUILD_START(29, PodRebuilds::applyStart),
    POD_REBUILD_CHECKPOINT(30, PodRebuilds::applyCheckpoint),
    POD_DECOMMISSION_START(31, PodRebuilds::applyDecommissionStart),
    CREATE_ACCOUNT(32, Accounts::applyCreateAccount),
    RESEAL_ACCESS_KEY(33, AccessKeys::applyResealAccessKey),
    SET_BUCKET_LIFECYCLE(34, BucketLifecycles::applySetLifecycle),
    DELETE_OBJECTS_IF_LATEST(35, ObjectVersions::applyDeleteObjectsIfLatest),
    REGISTER_CLUSTER_MAP(36, ClusterMap::applyRegisterClusterMap),

    GET_BUCKET(64, Buckets::answerGetBucket),
    LIST_BUCKETS(65, Buckets::answerListBuckets),
    GET_OBJECT(66, ObjectVersions::answerGetObject),
    LIST_OBJECTS(67, ObjectListings::answerListObjects),
    LIST_VERSIONS(68, ObjectListings::answerListVersions),
    LIST_PARTS(69, Uploads::answerListParts),
    LIST_UPLOADS(70, Uploads::answerListUploads),
    LIST_VAULTS(71, ClusterMap::answerListVaults),
    LIST_STASHES(72, ClusterMap::answerListStashes),
    LOOKUP_ACCESS_KEY(73, AccessKeys::answerLookupAccessKey),
    /** Every key with its sealed secret: only the re-encryption of secrets asks for it. */
    LIST_SEALED_ACCESS_KEYS(74, AccessKeys::answerListSealedAccessKeys),
    PENDING_DELETIONS(75, FileLifetimes::answerPendingDeletions),
    /** Diagnostics: the applied index and a checksum over every table, taken from one RocksDB snapshot. */
    STATE_CHECKSUM(76, CommandDispatcher::answerStateChecksum),
    USAGE(77, Buckets::answerUsage),
    LIST_POD_STATES(78, ClusterMap::answerListPodStates),
    GET_BUCKET_ACL(79, AclCommands::answerGetBucketAcl),
    LIST_REPAIRS(80, RepairQueue::answerList),
    FILE_STATES(82, OrphanFences::answerStates),
    GET_FILE(81, FileLifetimes::answerFile),
    LIST_FILES(84, FileLifetimes::answerListFiles),
    LIST_POD_REBUILDS(85, PodRebuilds::answerList),
    LIST_ACCOUNTS(86, Accounts::answerListAccounts),
    GET_BUCKET_USAGE(87, Buckets::answerBucketUsage),
    GET_BUCKET_LIFECYCLE(88, BucketLifecycles::answerGetLifecycle),
    LIST_ACCESS_KEYS(89, AccessKeys::answerListAccessKeys),
    /** GET_BUCKET then GET_OBJECT in one query: a GET's or HEAD's one catalog read. */
    GET_BUCKET_VERSION(90, ObjectVersions::answerGetBucketVersion);

    private static final Op[] BY_CODE = new Op[128];

    static {
        for (Op op : values()) {
            BY_CODE[op.code] = op;
        }
    }

    /** Applies a write: reads its fields from {@code in}, writes its reply after the success byte to {@code out}. */
    @FunctionalInterface
    interface Write {
        void apply(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException;
    }

    /** Answers a read from one consistent view, as {@link Write} does. */
    @FunctionalInterface
    interface Read {
        void answer(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) throws CatalogException;
    }

    final int code;
    final boolean write;
    private final Write apply;
    private final Read answer;

    Op(int code, Write apply) {
        this.code = code;
        this.write = true;
        this.apply = apply;
        this.answer = null;
    }

    Op(int code, Read answer) {
        this.code = code;
        this.write = false;
        this.apply = null;
        this.answer = answer;
    }

    void apply(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        if (apply == null) {
            throw new IllegalArgumentException(this + " is not a write");
        }
        apply.apply(e, in, out);
    }

    void answer(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) throws CatalogException {
        if (answer == null) {
            throw new IllegalArgumentException(this + " is not a read");
        }
        answer.answer(r, in, out);
    }

    /** How a peer answers an op it does not know (BAD_REQUEST, from the query path), in every build. */
    private static final String UNKNOWN = "unknown catalog op ";

    static Op of(int code) {
        Op op = code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
        if (op == null) {
            throw new IllegalArgumentException(UNKNOWN + code);
        }
        return op;
    }

    /**
     * Whether a call failed because the peer that served it does not know its op: a peer of an older build,
     * during a rolling upgrade, asked for an op added since.
     */
    static boolean unknownToPeer(Throwable failure) {
        return ShardvaultException.unwrap(failure) instanceof CatalogException e && e.code() == ErrorCode.BAD_REQUEST
                && String.valueOf(e.getMessage()).startsWith(UNKNOWN);
    }
}
