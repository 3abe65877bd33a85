package io.shardvault.coordinator.catalog.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.AccessKey;
import io.shardvault.coordinator.catalog.AccessKeyInfo;
import io.shardvault.coordinator.catalog.Account;
import io.shardvault.coordinator.catalog.AccountListing;
import io.shardvault.coordinator.catalog.Bucket;
import io.shardvault.coordinator.catalog.BucketUsage;
import io.shardvault.coordinator.catalog.BucketVersion;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.CatalogConfigKeys;
import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.catalog.CompletedPart;
import io.shardvault.coordinator.catalog.DeleteIfLatest;
import io.shardvault.coordinator.catalog.DeleteObjectVersion;
import io.shardvault.coordinator.catalog.DeleteOutcome;
import io.shardvault.coordinator.catalog.DeleteResult;
import io.shardvault.coordinator.catalog.FileDeletion;
import io.shardvault.coordinator.catalog.FileIdRange;
import io.shardvault.coordinator.catalog.FileKey;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.catalog.FileState;
import io.shardvault.coordinator.catalog.ListObjectsQuery;
import io.shardvault.coordinator.catalog.ListVersionsQuery;
import io.shardvault.coordinator.catalog.MapRegistration;
import io.shardvault.coordinator.catalog.MultipartUpload;
import io.shardvault.coordinator.catalog.ObjectListing;
import io.shardvault.coordinator.catalog.ObjectMetadata;
import io.shardvault.coordinator.catalog.ObjectVersion;
import io.shardvault.coordinator.catalog.PartListing;
import io.shardvault.coordinator.catalog.PodInfo;
import io.shardvault.coordinator.catalog.PodRebuildJob;
import io.shardvault.coordinator.catalog.PodState;
import io.shardvault.coordinator.catalog.PodStatus;
import io.shardvault.coordinator.catalog.PutObjectVersion;
import io.shardvault.coordinator.catalog.PutResult;
import io.shardvault.coordinator.catalog.RepairTask;
import io.shardvault.coordinator.catalog.Retention;
import io.shardvault.coordinator.catalog.RetentionMode;
import io.shardvault.coordinator.catalog.SecretCipher;
import io.shardvault.coordinator.catalog.StashInfo;
import io.shardvault.coordinator.catalog.UploadListing;
import io.shardvault.coordinator.catalog.Usage;
import io.shardvault.coordinator.catalog.VaultInfo;
import io.shardvault.coordinator.catalog.VersionListing;
import io.shardvault.coordinator.catalog.VersioningState;
import io.shardvault.coordinator.catalog.WriteCondition;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.ratis.client.RaftClient;

/**
 * {@link Catalog} over Ratis: each method sends the {@link Call} of the subject that owns the command
 * ({@link Buckets}, {@link ObjectVersions}, {@link Uploads}, ...) through {@link RatisCalls}, which
 * carries writes through the Raft log and reads as linearizable queries, in-process to a local leader
 * when it can. Nothing else lives here: a command's fields and reply are its subject's. The one exception
 * is sealing access key secrets ({@link SecretCipher}): it must happen on this side of the Raft log, so
 * that no entry, table or snapshot holds a secret in the clear.
 *
 * <p>Thread-safe.
 */
final class RatisCatalog implements Catalog {
    private final RatisCalls calls;
    private final Optional<SecretCipher> secrets;

    /** {@code secrets}: the cluster keys, or none to store secrets in the clear (security.insecure). */
    RatisCatalog(RaftClient client, Optional<RatisCalls.LocalPeer> local, Duration timeout, MeterRegistry registry,
                 Optional<SecretCipher> secrets) {
        this.calls = new RatisCalls(client, local, timeout, registry);
        this.secrets = secrets;
    }

    private <T> CompletableFuture<T> call(Call<T> call) {
        return calls.call(call);
    }

    /** A diagnostic: (applied index, checksum over every table) as of a given peer, read stale from it. */
    CompletableFuture<long[]> stateChecksum(String peerId, long minIndex) {
        return calls.stateChecksum(peerId, minIndex);
    }

    @Override
    public CompletableFuture<Bucket> createBucket(String name, String ownerAccessKeyId, boolean objectLockEnabled,
                                                  String cannedAcl) {
        return call(Buckets.createBucket(name, ownerAccessKeyId, objectLockEnabled, cannedAcl));
    }

    @Override
    public CompletableFuture<String> getBucketAcl(String bucket) {
        return call(AclCommands.getBucketAcl(bucket));
    }

    @Override
    public CompletableFuture<Void> setBucketAcl(String bucket, String cannedAcl) {
        return call(AclCommands.setBucketAcl(bucket, cannedAcl));
    }

    @Override
    public CompletableFuture<ObjectVersion> setObjectAcl(String bucket, String key, Optional<String> versionId,
                                                         String cannedAcl) {
        return call(AclCommands.setObjectAcl(bucket, key, versionId, cannedAcl));
    }

    @Override
    public CompletableFuture<Void> deleteBucket(String name) {
        return call(Buckets.deleteBucket(name));
    }

    @Override
    public CompletableFuture<Bucket> getBucket(String name) {
        return call(Buckets.getBucket(name));
    }

    @Override
    public CompletableFuture<List<Bucket>> listBuckets() {
        return call(Buckets.listBuckets());
    }

    @Override
    public CompletableFuture<Bucket> setVersioning(String bucket, VersioningState state) {
        return call(Buckets.setVersioning(bucket, state));
    }

    @Override
    public CompletableFuture<Bucket> setDefaultRetention(String bucket, Optional<RetentionMode> mode, int days) {
        return call(Buckets.setDefaultRetention(bucket, mode, days));
    }

    @Override
    public CompletableFuture<PutResult> putObjectVersion(PutObjectVersion request) {
        return call(ObjectVersions.putObject(request));
    }

    @Override
    public CompletableFuture<ObjectVersion> getObjectVersion(String bucket, String key, Optional<String> versionId) {
        return call(ObjectVersions.getObject(bucket, key, versionId));
    }

    @Override
    public CompletableFuture<BucketVersion> bucketVersion(String bucket, String key, Optional<String> versionId) {
        return orFromAnOlderLeader(call(ObjectVersions.getBucketVersion(bucket, key, versionId)),
                () -> BucketVersion.readInTwo(this, bucket, key, versionId));
    }

    /**
     * {@code call}'s answer, or, when the leader that served it does not know its op (an older build, during a
     * rolling upgrade of the coordinators), what {@code older} answers with the ops that build has.
     */
    static <T> CompletableFuture<T> orFromAnOlderLeader(CompletableFuture<T> call, Supplier<CompletableFuture<T>> older) {
        return call.exceptionallyCompose(failure -> Op.unknownToPeer(failure) ? older.get()
                : CompletableFuture.failedFuture(failure));
    }

    @Override
    public CompletableFuture<DeleteResult> deleteObject(DeleteObjectVersion request) {
        return call(ObjectVersions.deleteObject(request));
    }

    @Override
    public CompletableFuture<List<DeleteOutcome>> deleteObjects(List<DeleteObjectVersion> requests) {
        return call(ObjectVersions.deleteObjects(requests));
    }

    @Override
    public CompletableFuture<List<DeleteOutcome>> deleteObjectsIfLatest(List<DeleteIfLatest> requests) {
        return call(ObjectVersions.deleteObjectsIfLatest(requests));
    }

    @Override
    public CompletableFuture<ObjectVersion> setRetention(String bucket, String key, Optional<String> versionId,
                                                         Optional<Retention> retention, boolean bypass) {
        return call(ObjectVersions.setRetention(bucket, key, versionId, retention, bypass));
    }

    @Override
    public CompletableFuture<ObjectVersion> setLegalHold(String bucket, String key, Optional<String> versionId,
                                                         boolean on) {
        return call(ObjectVersions.setLegalHold(bucket, key, versionId, on));
    }

    @Override
    public CompletableFuture<ObjectListing> listObjects(ListObjectsQuery query) {
        return call(ObjectListings.listObjects(query));
    }

    @Override
    public CompletableFuture<VersionListing> listObjectVersions(ListVersionsQuery query) {
        return call(ObjectListings.listVersions(query));
    }

    @Override
    public CompletableFuture<MultipartUpload> createMultipartUpload(String bucket, String key, ObjectMetadata metadata,
                                                                    Optional<Retention> retention, boolean legalHold) {
        return call(Uploads.createUpload(bucket, key, metadata, retention, legalHold));
    }

    @Override
    public CompletableFuture<List<FileRef>> putPart(String bucket, String key, String uploadId, int partNumber,
                                                    String etag, FileRef file, Map<String, String> checksums) {
        return call(Uploads.putPart(bucket, key, uploadId, partNumber, etag, file, checksums));
    }

    @Override
    public CompletableFuture<PartListing> listParts(String bucket, String key, String uploadId, int partNumberMarker,
                                                    int maxParts) {
        return call(Uploads.listParts(bucket, key, uploadId, partNumberMarker, maxParts));
    }

    @Override
    public CompletableFuture<PutResult> completeMultipartUpload(String bucket, String key, String uploadId,
                                                                List<CompletedPart> parts, long minPartBytes,
                                                                WriteCondition condition,
                                                                Map<String, String> checksums, String checksumType) {
        return call(Uploads.completeUpload(bucket, key, uploadId, parts, minPartBytes, condition, checksums,
                checksumType));
    }

    @Override
    public CompletableFuture<List<FileRef>> abortMultipartUpload(String bucket, String key, String uploadId) {
        return call(Uploads.abortUpload(bucket, key, uploadId));
    }

    @Override
    public CompletableFuture<UploadListing> listMultipartUploads(String bucket, String prefix, String keyMarker,
                                                                 String uploadIdMarker, int maxUploads) {
        return call(Uploads.listUploads(bucket, prefix, keyMarker, uploadIdMarker, maxUploads));
    }

    @Override
    public CompletableFuture<VaultInfo> registerVault(VaultInfo vault) {
        return call(ClusterMap.registerVault(vault));
    }

    @Override
    public CompletableFuture<Void> registerPod(PodInfo pod) {
        return call(ClusterMap.registerPod(pod));
    }

    @Override
    public CompletableFuture<Void> registerStash(StashInfo stash) {
        return call(ClusterMap.registerStash(stash));
    }

    @Override
    public CompletableFuture<MapRegistration> registerClusterMap(List<VaultInfo> vaults, List<StashInfo> stashes) {
        return call(ClusterMap.registerClusterMap(vaults, stashes));
    }

    @Override
    public CompletableFuture<List<VaultInfo>> listVaults() {
        return call(ClusterMap.listVaults());
    }

    @Override
    public CompletableFuture<List<StashInfo>> listStashes() {
        return call(ClusterMap.listStashes());
    }

    @Override
    public CompletableFuture<PodStatus> setPodState(int vaultId, int shardIndex, PodState state) {
        return call(ClusterMap.setPodState(vaultId, shardIndex, state));
    }

    @Override
    public CompletableFuture<List<PodStatus>> listPodStates() {
        return call(ClusterMap.listPodStates());
    }

    @Override
    public CompletableFuture<FileIdRange> allocateFileIds(int vaultId, int count) {
        return call(ClusterMap.allocateFileIds(vaultId, count));
    }

    @Override
    public CompletableFuture<Usage> usage(Optional<String> bucket) {
        return call(Buckets.usage(bucket));
    }

    @Override
    public CompletableFuture<BucketUsage> bucketUsage(String bucket) {
        return call(Buckets.bucketUsage(bucket));
    }

    @Override
    public CompletableFuture<Void> setBucketQuota(String bucket, long quotaBytes) {
        return call(Buckets.setBucketQuota(bucket, quotaBytes));
    }

    @Override
    public CompletableFuture<Optional<String>> bucketLifecycle(String bucket) {
        return call(BucketLifecycles.getLifecycle(bucket));
    }

    @Override
    public CompletableFuture<Void> setBucketLifecycle(String bucket, Optional<String> document) {
        return call(BucketLifecycles.setLifecycle(bucket, document));
    }

    @Override
    public CompletableFuture<Account> createAccount(String name) {
        return call(Accounts.createAccount(name));
    }

    @Override
    public CompletableFuture<List<AccountListing>> listAccounts() {
        return call(Accounts.listAccounts());
    }

    @Override
    public CompletableFuture<AccessKey> createAccessKey(String account, boolean bypassGovernanceAllowed,
                                                        Optional<String> bucket, boolean readOnly) {
        return call(AccessKeys.createAccessKey(account, bypassGovernanceAllowed, bucket, readOnly, this::seal))
                .thenApply(this::open);
    }

    /** A key as builds before accounts created it (free-text owner): for tests of the upgrade rule. */
    CompletableFuture<AccessKey> createLegacyAccessKey(String owner, boolean bypassGovernanceAllowed) {
        return call(AccessKeys.createLegacyAccessKey(owner, bypassGovernanceAllowed));
    }

    @Override
    public CompletableFuture<AccessKey> disableAccessKey(String accessKeyId) {
        return call(AccessKeys.disableAccessKey(accessKeyId)).thenApply(this::open);
    }

    @Override
    public CompletableFuture<AccessKey> lookupAccessKey(String accessKeyId) {
        return call(AccessKeys.lookupAccessKey(accessKeyId)).thenApply(this::open);
    }

    @Override
    public CompletableFuture<List<AccessKeyInfo>> listAccessKeys() {
        return call(AccessKeys.listAccessKeys());
    }

    @Override
    public CompletableFuture<Integer> resealSecrets() {
        if (secrets.isEmpty()) {
            return CompletableFuture.failedFuture(new CatalogException(ErrorCode.INVALID_ARGUMENT,
                    CatalogConfigKeys.SECRETS_KEY_FILE.name() + " is not set: there is no cluster key to seal under"));
        }
        SecretCipher cipher = secrets.get();
        return call(AccessKeys.listSealedAccessKeys()).thenCompose(keys -> {
            CompletableFuture<Integer> done = CompletableFuture.completedFuture(0);
            for (AccessKey k : keys) {
                if (cipher.isCurrent(k.secretKey())) {
                    continue;
                }
                // Opened and sealed here, in the coordinator: the command carries only the sealed form.
                String sealed = cipher.seal(k.accessKeyId(), cipher.open(k.accessKeyId(), k.secretKey()));
                done = done.thenCompose(n -> call(AccessKeys.resealAccessKey(k.accessKeyId(), k.secretKey(), sealed))
                        .thenApply(swapped -> swapped ? n + 1 : n));
            }
            return done;
        });
    }

    private String seal(String accessKeyId, String secret) {
        return secrets.map(c -> c.seal(accessKeyId, secret)).orElse(secret);
    }

    /** {@code k} with its secret opened; a sealed one without the key file fails, naming the setting. */
    private AccessKey open(AccessKey k) {
        if (secrets.isPresent()) {
            return k.withSecret(secrets.get().open(k.accessKeyId(), k.secretKey()));
        }
        if (SecretCipher.isSealed(k.secretKey())) {
            throw new IllegalStateException("the secret of access key " + k.accessKeyId() + " is sealed, and "
                    + CatalogConfigKeys.SECRETS_KEY_FILE.name() + " is not set");
        }
        return k;
    }

    @Override
    public CompletableFuture<List<FileDeletion>> pendingFileDeletions(int limit) {
        return call(FileLifetimes.pendingDeletions(limit));
    }

    @Override
    public CompletableFuture<Void> ackFileDeletions(List<Long> deletionIds) {
        return call(FileLifetimes.ackDeletions(deletionIds));
    }

    @Override
    public CompletableFuture<Optional<FileRef>> file(int vaultId, long fileId) {
        return call(FileLifetimes.file(vaultId, fileId));
    }

    @Override
    public CompletableFuture<List<FileState>> fileStates(List<FileKey> files) {
        return call(OrphanFences.states(files));
    }

    @Override
    public CompletableFuture<List<FileKey>> collectFiles(List<FileKey> files) {
        return call(OrphanFences.collect(files));
    }

    @Override
    public CompletableFuture<RepairTask> enqueueRepair(int vaultId, long fileId, List<Integer> shards, String reason) {
        return call(RepairQueue.enqueue(vaultId, fileId, shards, reason));
    }

    @Override
    public CompletableFuture<List<RepairTask>> listRepairs(int fromVaultId, long fromFileId, int limit) {
        return call(RepairQueue.list(fromVaultId, fromFileId, limit));
    }

    @Override
    public CompletableFuture<Optional<RepairTask>> removeRepair(int vaultId, long fileId, List<Integer> repaired) {
        return call(RepairQueue.remove(vaultId, fileId, repaired));
    }

    @Override
    public CompletableFuture<List<FileRef>> listFiles(int vaultId, long afterFileId, int limit) {
        return call(FileLifetimes.listFiles(vaultId, afterFileId, limit));
    }

    @Override
    public CompletableFuture<PodRebuildJob> startPodRebuild(int vaultId, int shardIndex, String host, int port,
                                                            boolean checkOnly, long filesTotal) {
        return call(PodRebuilds.start(vaultId, shardIndex, host, port, checkOnly, filesTotal));
    }

    @Override
    public CompletableFuture<PodRebuildJob> startPodDecommission(int vaultId, int shardIndex, String host, int port,
                                                                 String sourceHost, int sourcePort, long filesTotal) {
        return call(PodRebuilds.decommission(vaultId, shardIndex, host, port, sourceHost, sourcePort, filesTotal));
    }

    @Override
    public CompletableFuture<PodRebuildJob> checkpointPodRebuild(PodRebuildJob job) {
        return call(PodRebuilds.checkpoint(job));
    }

    @Override
    public CompletableFuture<List<PodRebuildJob>> listPodRebuilds() {
        return call(PodRebuilds.list());
    }

    @Override
    public void close() {
        calls.close();
    }
}
