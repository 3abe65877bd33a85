package io.shardvault.coordinator.catalog;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The catalog as one coordinator sees it: every method is one atomic operation on the replicated
 * state, and every answer is linearizable (a write is in the Raft log, committed and applied
 * before its future completes; a read reflects every write completed before it was issued).
 *
 * <p>Futures fail with a {@link CatalogException} (wrapped in a
 * {@link java.util.concurrent.CompletionException} when joined): a missing bucket is
 * {@code NO_SUCH_BUCKET}, a missing key {@code NO_SUCH_KEY}, a missing version
 * {@code NO_SUCH_VERSION}, a failed condition {@code PRECONDITION_FAILED}, a locked version
 * {@code ACCESS_DENIED}, a malformed argument {@code INVALID_ARGUMENT}; no answer in time is
 * {@code TIMEOUT} or {@code UNAVAILABLE}. Argument checks that need no state throw
 * {@link IllegalArgumentException} or {@link NullPointerException} directly.
 *
 * <p>Writes retried by the implementation after a leader change carry the same request id and
 * are applied at most once.
 *
 * <p>Thread-safe. Closing releases the client's connections; pending futures fail.
 */
public interface Catalog extends AutoCloseable {

    // ---- buckets ----

    /**
     * Creates a bucket owned by an account (the id of the creating key's account). Fails with
     * {@code BUCKET_ALREADY_OWNED_BY_YOU} when the same owner has it,
     * {@code BUCKET_ALREADY_EXISTS} when someone else does. Object Lock turns versioning on.
     *
     * @param cannedAcl its canned ACL's {@code x-amz-acl} name ({@link #PRIVATE_ACL} for none)
     */
    CompletableFuture<Bucket> createBucket(String name, String ownerAccessKeyId, boolean objectLockEnabled,
                                           String cannedAcl);

    /** {@link #createBucket(String, String, boolean, String)} with a private ACL. */
    default CompletableFuture<Bucket> createBucket(String name, String ownerAccessKeyId, boolean objectLockEnabled) {
        return createBucket(name, ownerAccessKeyId, objectLockEnabled, PRIVATE_ACL);
    }

    /**
     * The canned ACL of a bucket or version where none was set. The catalog keeps ACLs by name and never
     * interprets them (issue #17); a version's is {@link ObjectMetadata#cannedAcl()}.
     */
    String PRIVATE_ACL = "private";

    /** A bucket's canned ACL name: {@code NO_SUCH_BUCKET}. */
    CompletableFuture<String> getBucketAcl(String bucket);

    /** Replaces a bucket's canned ACL: {@code NO_SUCH_BUCKET}. */
    CompletableFuture<Void> setBucketAcl(String bucket, String cannedAcl);

    /** Deletes an empty bucket: {@code BUCKET_NOT_EMPTY} while any version, marker or upload remains. */
    CompletableFuture<Void> deleteBucket(String name);

    /** Looks a bucket up: {@code NO_SUCH_BUCKET} when absent. */
    CompletableFuture<Bucket> getBucket(String name);

    /** Every bucket, by name. */
    CompletableFuture<List<Bucket>> listBuckets();

    /**
     * Sets versioning to {@code ENABLED} or {@code SUSPENDED}. {@code UNVERSIONED} is refused with
     * {@code INVALID_ARGUMENT}, and so is suspending a bucket with Object Lock.
     */
    CompletableFuture<Bucket> setVersioning(String bucket, VersioningState state);

    /**
     * Sets or clears (mode empty) an Object Lock bucket's default retention: {@code INVALID_ARGUMENT}
     * for a bucket without Object Lock or a non-positive length.
     */
    CompletableFuture<Bucket> setDefaultRetention(String bucket, Optional<RetentionMode> mode, int days);

    // ---- object versions ----

    /**
     * Commits a new version, checking {@link PutObjectVersion#condition()} atomically. While
     * versioning is not enabled, it replaces the key's {@code null} version, whose files are then
     * released (unless a lock forbids: {@code ACCESS_DENIED}).
     */
    CompletableFuture<PutResult> putObjectVersion(PutObjectVersion request);

    /**
     * The latest version ({@code NO_SUCH_KEY} when absent or a delete marker) or a given version
     * ({@code NO_SUCH_VERSION} when absent; a delete marker is returned as such).
     */
    CompletableFuture<ObjectVersion> getObjectVersion(String bucket, String key, Optional<String> versionId);

    /**
     * A bucket and a version of one of its keys, from one consistent view in one read: what a GET or HEAD
     * needs (whose bucket it is, and the version). {@code NO_SUCH_BUCKET} fails the read; a version that
     * {@link #getObjectVersion} would refuse (its {@code NO_SUCH_KEY}, {@code NO_SUCH_VERSION},
     * {@code INVALID_ARGUMENT}) comes back as that error beside the bucket.
     */
    CompletableFuture<BucketVersion> bucketVersion(String bucket, String key, Optional<String> versionId);

    /**
     * Deletes an object (a delete marker when versioning is enabled; removes the {@code null}
     * version otherwise, leaving a {@code null} marker when suspended), or removes one version for
     * good. Removing a version under an active retention or legal hold fails with
     * {@code ACCESS_DENIED} (GOVERNANCE yields to a bypass). Removing a version that does not exist
     * succeeds with nothing removed.
     */
    CompletableFuture<DeleteResult> deleteObject(DeleteObjectVersion request);

    /** {@link #deleteObject(DeleteObjectVersion)} without bypassing governance retention. */
    default CompletableFuture<DeleteResult> deleteObject(String bucket, String key, Optional<String> versionId) {
        return deleteObject(new DeleteObjectVersion(bucket, key, versionId, false));
    }

    /**
     * Up to {@value #MAX_BATCH} deletes in one atomic log entry (S3 DeleteObjects): each is checked
     * and applied as {@link #deleteObject(DeleteObjectVersion)} would, in order; one that fails (a
     * locked version, a missing bucket) is reported in its outcome and changes nothing, the others
     * still apply. The outcomes are in request order.
     */
    CompletableFuture<List<DeleteOutcome>> deleteObjects(List<DeleteObjectVersion> requests);

    /** The most deletes one {@link #deleteObjects} call takes. */
    int MAX_BATCH = 1000;

    /**
     * {@link #deleteObjects}, each delete applied only while its key's newest version is still the one it
     * names ({@code PRECONDITION_FAILED} otherwise, for that item alone): the lifecycle expirer's deletes.
     */
    CompletableFuture<List<DeleteOutcome>> deleteObjectsIfLatest(List<DeleteIfLatest> requests);

    /**
     * Sets one version's retention. COMPLIANCE can be extended, never shortened, removed or turned
     * into GOVERNANCE; GOVERNANCE can be shortened or removed only with the bypass
     * ({@code ACCESS_DENIED} otherwise).
     */
    CompletableFuture<ObjectVersion> setRetention(String bucket, String key, Optional<String> versionId,
                                                  Optional<Retention> retention, boolean bypassGovernanceRetention);

    /** Puts a legal hold on one version or takes it off. */
    CompletableFuture<ObjectVersion> setLegalHold(String bucket, String key, Optional<String> versionId, boolean on);

    /**
     * Replaces one version's canned ACL in place (data, metadata otherwise and lock are kept): the latest
     * ({@code NO_SUCH_KEY} when absent or a delete marker) or a given one ({@code NO_SUCH_VERSION}).
     */
    CompletableFuture<ObjectVersion> setObjectAcl(String bucket, String key, Optional<String> versionId,
                                                  String cannedAcl);

    /** One page of the current versions' keys: see {@link ListObjectsQuery} for the order and markers. */
    CompletableFuture<ObjectListing> listObjects(ListObjectsQuery query);

    /** One page of every version and delete marker: see {@link ListVersionsQuery}. */
    CompletableFuture<VersionListing> listObjectVersions(ListVersionsQuery query);

    // ---- multipart uploads ----

    /** Starts an upload; the completed object will carry this metadata and lock. */
    CompletableFuture<MultipartUpload> createMultipartUpload(String bucket, String key, ObjectMetadata metadata,
                                                             Optional<Retention> retention, boolean legalHold);

    /**
     * Records a part ({@code NO_SUCH_UPLOAD} when the upload is gone). Returns the files released
     * by replacing an earlier part with the same number (already queued for deletion).
     */
    default CompletableFuture<List<FileRef>> putPart(String bucket, String key, String uploadId, int partNumber,
                                                     String etag, FileRef file) {
        return putPart(bucket, key, uploadId, partNumber, etag, file, Map.of());
    }

    /** As {@link #putPart(String, String, String, int, String, FileRef)}, keeping the part's checksums. */
    CompletableFuture<List<FileRef>> putPart(String bucket, String key, String uploadId, int partNumber,
                                             String etag, FileRef file, Map<String, String> checksums);

    /** One page of an upload's parts, after {@code partNumberMarker}. */
    CompletableFuture<PartListing> listParts(String bucket, String key, String uploadId, int partNumberMarker,
                                             int maxParts);

    /**
     * Completes an upload atomically: checks that the parts are ascending
     * ({@code INVALID_PART_ORDER}), were uploaded with those ETags ({@code INVALID_PART}) and, but
     * for the last, are at least {@code minPartBytes} long ({@code ENTITY_TOO_SMALL}); then writes
     * the version (ETag {@code md5(part md5s)-N}) as {@link #putObjectVersion} would, checking
     * {@code condition}, ends the upload and releases the parts not used.
     */
    default CompletableFuture<PutResult> completeMultipartUpload(String bucket, String key, String uploadId,
                                                                 List<CompletedPart> parts, long minPartBytes,
                                                                 WriteCondition condition) {
        return completeMultipartUpload(bucket, key, uploadId, parts, minPartBytes, condition, Map.of(), "");
    }

    /**
     * As {@link #completeMultipartUpload(String, String, String, List, long, WriteCondition)}, storing the
     * object's checksum (computed by the caller from the parts' checksums; see {@link UploadedPart#checksums()})
     * in place of the upload's.
     *
     * @param checksums algorithm to base64 value (empty: keep the upload's metadata as it is)
     * @param checksumType FULL_OBJECT or COMPOSITE (empty with no checksums)
     */
    CompletableFuture<PutResult> completeMultipartUpload(String bucket, String key, String uploadId,
                                                         List<CompletedPart> parts, long minPartBytes,
                                                         WriteCondition condition, Map<String, String> checksums,
                                                         String checksumType);

    /** Aborts an upload and releases its parts: {@code NO_SUCH_UPLOAD} when it is gone. */
    CompletableFuture<List<FileRef>> abortMultipartUpload(String bucket, String key, String uploadId);

    /** One page of a bucket's uploads in progress, by key then upload id. */
    CompletableFuture<UploadListing> listMultipartUploads(String bucket, String prefix, String keyMarker,
                                                          String uploadIdMarker, int maxUploads);

    // ---- cluster ----

    /** Registers a vault, or updates its capacity; its layout cannot change ({@code INVALID_ARGUMENT}). */
    CompletableFuture<VaultInfo> registerVault(VaultInfo vault);

    /** Registers a pod of a registered vault, or moves it to a new address. */
    CompletableFuture<Void> registerPod(PodInfo pod);

    /** Registers a stash server, or moves it to a new address. */
    CompletableFuture<Void> registerStash(StashInfo stash);

    /**
     * Registers a whole cluster map in one command ({@code shardvault init --map}, and a coordinator whose
     * settings hold the map): {@code vaults} with every pod, and {@code stashes}. A vault or pod the
     * catalog lacks is added, and the stash servers when it records none; everything it holds must agree
     * with the map: {@code CONFLICT}, naming each difference, when a vault's layout differs, a pod is at
     * another address (unless the pod's last decommission moved it there from the map's address), the
     * catalog holds a vault or stash server the map lacks, or the stash servers differ. Nothing is
     * written then.
     */
    CompletableFuture<MapRegistration> registerClusterMap(List<VaultInfo> vaults, List<StashInfo> stashes);

    /** Every vault with its pods, by id. */
    CompletableFuture<List<VaultInfo>> listVaults();

    /** Every stash server, by id. */
    CompletableFuture<List<StashInfo>> listStashes();

    /**
     * Sets a registered pod's operator state ({@code INVALID_ARGUMENT} for an unknown pod). Data
     * paths stop placing new shards on a pod that is not {@link PodState#UP}.
     */
    CompletableFuture<PodStatus> setPodState(int vaultId, int shardIndex, PodState state);

    /** Every pod whose state is not {@link PodState#UP}, by vault and shard index (the others are up). */
    CompletableFuture<List<PodStatus>> listPodStates();

    /** Hands out {@code count} new file ids of a vault, never handed out before. */
    CompletableFuture<FileIdRange> allocateFileIds(int vaultId, int count);

    /** A bucket's usage ({@code NO_SUCH_BUCKET} when absent), or the cluster's when {@code bucket} is empty. */
    CompletableFuture<Usage> usage(Optional<String> bucket);

    /** A bucket with its usage, in one read ({@code NO_SUCH_BUCKET} when absent). */
    CompletableFuture<BucketUsage> bucketUsage(String bucket);

    /**
     * Sets a bucket's quota in bytes, or removes it ({@code 0}): SOSAPI's capacity.xml then reports
     * the quota as the bucket's capacity (issue #9). {@code NO_SUCH_BUCKET}; {@code INVALID_ARGUMENT}
     * for a negative quota. The quota is kept until changed or the bucket is deleted.
     */
    CompletableFuture<Void> setBucketQuota(String bucket, long quotaBytes);

    /**
     * A bucket's lifecycle configuration, the document the S3 layer stored, or empty when it has none
     * ({@code NO_SUCH_BUCKET}). The catalog keeps it and never interprets it.
     */
    CompletableFuture<Optional<String>> bucketLifecycle(String bucket);

    /**
     * Replaces a bucket's lifecycle configuration, or removes it (empty): {@code NO_SUCH_BUCKET};
     * {@code INVALID_ARGUMENT} for an empty document or one over a megabyte. Deleting the bucket removes it.
     */
    CompletableFuture<Void> setBucketLifecycle(String bucket, Optional<String> document);

    // ---- accounts and access keys ----

    /**
     * Creates an account with a fresh random id ({@code INVALID_ARGUMENT} for a malformed name). Display names
     * may repeat: the id tells the accounts apart.
     */
    CompletableFuture<Account> createAccount(String name);

    /** Every account, legacy ones included ({@link Account}), by name, with its key and bucket counts. */
    CompletableFuture<List<AccountListing>> listAccounts();

    /**
     * Creates an enabled access key with a fresh random id and secret for an account, named by its id or by
     * its display name ({@code NOT_FOUND} when there is none; {@code INVALID_ARGUMENT} when several accounts
     * share the name), limited to one bucket and to reads if asked.
     */
    CompletableFuture<AccessKey> createAccessKey(String account, boolean bypassGovernanceAllowed,
                                                 Optional<String> bucket, boolean readOnly);

    /** {@link #createAccessKey(String, boolean, Optional, boolean)} without restrictions. */
    default CompletableFuture<AccessKey> createAccessKey(String account, boolean bypassGovernanceAllowed) {
        return createAccessKey(account, bypassGovernanceAllowed, Optional.empty(), false);
    }

    /** Disables a key: {@code INVALID_ACCESS_KEY} when unknown. */
    CompletableFuture<AccessKey> disableAccessKey(String accessKeyId);

    /** Looks a key up (enabled or not): {@code INVALID_ACCESS_KEY} when unknown. */
    CompletableFuture<AccessKey> lookupAccessKey(String accessKeyId);

    /** Every access key, by id, without secrets: a secret leaves the catalog only in a lookup by its key's id. */
    CompletableFuture<List<AccessKeyInfo>> listAccessKeys();

    /**
     * Seals every stored secret not sealed under the newest cluster key (older keys' and plaintext ones from
     * before encryption) under it, one Raft command per key; idempotent. Afterwards the older keys can leave the
     * key file. {@code INVALID_ARGUMENT} when this coordinator has no key file.
     *
     * @return how many secrets were sealed anew
     */
    CompletableFuture<Integer> resealSecrets();

    // ---- file lifetimes ----

    /** The oldest queued file deletions, at most {@code limit}. */
    CompletableFuture<List<FileDeletion>> pendingFileDeletions(int limit);

    /** Removes done deletions from the queue; unknown ids are ignored (acks are idempotent). */
    CompletableFuture<Void> ackFileDeletions(List<Long> deletionIds);

    /**
     * The live file {@code (vaultId, fileId)} as its first reference recorded it (size, layout, the shards
     * it missed at its write), or empty when no version or part refers to it (deleted, or never committed).
     */
    CompletableFuture<Optional<FileRef>> file(int vaultId, long fileId);

    // ---- orphan collection (issue #20, section 5) ----

    /** What the catalog says of each file, in the order asked (1..10,000 files): one linearizable read. */
    CompletableFuture<List<FileState>> fileStates(List<FileKey> files);

    /**
     * Fences files for the orphan collector (1..10,000): each file no version, part or upload refers to, and
     * that the file reaper does not own, is recorded {@link FileState#COLLECTED} for good, and from then on
     * every commit that would refer to it is refused with {@code CONFLICT}. Returns the files fenced (those
     * already collected included), in the order given; only their shards and stash entries may be deleted.
     */
    CompletableFuture<List<FileKey>> collectFiles(List<FileKey> files);

    // ---- repair queue ----

    /**
     * Queues shards of a degraded file for repair (issue #20): a file committed with missing shards, a
     * chunk found corrupt or missing. Enqueuing a queued file adds the shards and keeps its first reason
     * and time. {@code INVALID_ARGUMENT} for an unknown vault, a shard outside its layout, no shard, or a
     * reason that is not a short lower-case word ({@code [a-z][a-z0-9-]{0,63}}). Returns the file's entry.
     */
    CompletableFuture<RepairTask> enqueueRepair(int vaultId, long fileId, List<Integer> shards, String reason);

    /** Queued repairs from {@code (vaultId, fileId)} on, in that order, at most {@code limit} (1..10,000). */
    CompletableFuture<List<RepairTask>> listRepairs(int fromVaultId, long fromFileId, int limit);

    /**
     * Takes repaired shards off a file's entry (all of it when {@code repaired} is empty); shards queued
     * meanwhile stay. Returns what is left, empty once the entry is gone. Idempotent.
     */
    CompletableFuture<Optional<RepairTask>> removeRepair(int vaultId, long fileId, List<Integer> repaired);

    // ---- pod rebuilds ----

    /**
     * Live files of a vault after {@code afterFileId} ({@code -1}: from the first), in file id order, at
     * most {@code limit} (1..10,000), each as its first reference recorded it: the walk of a pod rebuild.
     */
    CompletableFuture<List<FileRef>> listFiles(int vaultId, long afterFileId, int limit);

    /**
     * Starts the rebuild of pod {@code shardIndex} of a vault onto {@code host:port} (issue #20): a fresh
     * {@link PodRebuildJob.State#RUNNING} row that replaces a finished one, which the leading coordinator
     * runs and checkpoints. {@code CONFLICT} while a job of that pod runs; {@code INVALID_ARGUMENT} for an
     * unregistered pod.
     *
     * @param checkOnly only count the shards the pod lacks, write nothing
     * @param filesTotal an estimate of the files to walk, for progress
     */
    CompletableFuture<PodRebuildJob> startPodRebuild(int vaultId, int shardIndex, String host, int port,
                                                     boolean checkOnly, long filesTotal);

    /**
     * Starts the decommission of pod {@code shardIndex} of a vault (issue #20): a job like a rebuild's onto
     * {@code host:port}, the pod's replacement, that copies each shard from {@code sourceHost:sourcePort},
     * the pod being retired (which serves on meanwhile). Refused as {@link #startPodRebuild} is.
     */
    CompletableFuture<PodRebuildJob> startPodDecommission(int vaultId, int shardIndex, String host, int port,
                                                          String sourceHost, int sourcePort, long filesTotal);

    /**
     * Records a running job's progress (its position, counters and state, the rest as stored): {@code
     * CONFLICT} when the job is not the pod's running one, or the position would go back. Returns the row.
     * A decommission's DONE moves the pod to the job's target in the vault's map, in the same entry.
     */
    CompletableFuture<PodRebuildJob> checkpointPodRebuild(PodRebuildJob job);

    /** Every pod rebuild job the catalog keeps (running and done), by vault and shard index. */
    CompletableFuture<List<PodRebuildJob>> listPodRebuilds();

    /** Closes this client view; the peer (if any) is closed by its {@link CatalogServer}. */
    @Override
    void close();
}
