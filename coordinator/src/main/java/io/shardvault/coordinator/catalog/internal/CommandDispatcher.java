package io.shardvault.coordinator.catalog.internal;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.catalog.DeleteObjectVersion;
import io.shardvault.coordinator.catalog.DeleteResult;
import io.shardvault.coordinator.catalog.CompletedPart;
import io.shardvault.coordinator.catalog.WriteCondition;
import java.util.List;
import java.util.Map;
import io.shardvault.coordinator.catalog.PodState;
import io.shardvault.coordinator.catalog.RetentionMode;
import io.shardvault.coordinator.catalog.Usage;
import io.shardvault.coordinator.catalog.VersioningState;
import java.util.Optional;

/**
 * Decodes a command or query, runs it through {@link CatalogOperations} and encodes the result.
 *
 * <pre>
 *  result := u8 0 | payload            (success; payload per op)
 *          | u8 1 | u16 code | str msg (a typed answer: an ErrorCode wire value)
 * </pre>
 */
final class CommandDispatcher {
    private CommandDispatcher() {
    }

    static byte[] error(ErrorCode code, String message) {
        return new Wire.Writer().u8(1).u16(code.wire()).str(message).toByteArray();
    }

    /** Applies one write; a typed answer is returned encoded, with the transaction's writes discarded. */
    static byte[] applyWrite(Op op, Wire.Reader in, CatalogOperations.Entry e) {
        Wire.Writer out = new Wire.Writer().u8(0);
        try {
            switch (op) {
                // CREATE_BUCKET ends with the canned ACL: entries logged before it existed end early (private).
                case CREATE_BUCKET -> Codec.bucket(out, CatalogOperations.createBucket(e, in.str(), in.str(), in.bool(),
                        in.atEnd() ? Catalog.PRIVATE_ACL : in.str()));
                case SET_BUCKET_ACL -> AclCommands.setBucketAcl(e, in.str(), in.str());
                case SET_OBJECT_ACL -> {
                    String b = in.str();
                    String k = in.str();
                    Optional<String> v = optional(in);
                    Codec.objectVersion(out, AclCommands.setObjectAcl(e, b, k, v, in.str()));
                }
                case DELETE_BUCKET -> CatalogOperations.deleteBucket(e, in.str());
                case SET_VERSIONING -> Codec.bucket(out,
                        CatalogOperations.setVersioning(e, in.str(), VersioningState.values()[in.u8()]));
                case SET_DEFAULT_RETENTION -> {
                    String b = in.str();
                    int mode = in.u8();
                    Codec.bucket(out, CatalogOperations.setDefaultRetention(e, b,
                            mode == 0 ? Optional.empty() : Optional.of(RetentionMode.values()[mode - 1]), in.i32()));
                }
                case SET_BUCKET_QUOTA -> CatalogOperations.setBucketQuota(e, in.str(), in.i64());
                case PUT_OBJECT -> Codec.putResult(out, CatalogOperations.putObject(e, Codec.putRequest(in)));
                case DELETE_OBJECT -> {
                    String b = in.str();
                    String k = in.str();
                    Optional<String> v = optional(in);
                    Codec.deleteResult(out, CatalogOperations.deleteObject(e,
                            new DeleteObjectVersion(b, k, v, in.bool())));
                }
                case DELETE_OBJECTS -> {
                    List<DeleteObjectVersion> items = Codec.list(in, Codec::deleteRequest);
                    if (items.size() > Catalog.MAX_BATCH) {
                        throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "at most "
                                + Catalog.MAX_BATCH + " deletes per batch");
                    }
                    out.i32(items.size());
                    for (DeleteObjectVersion item : items) {
                        e.txn().savePoint();
                        try {
                            DeleteResult r = CatalogOperations.deleteObject(e, item);
                            out.u8(0);
                            Codec.deleteResult(out, r);
                        } catch (CatalogException ex) {
                            e.txn().rollBack();
                            out.u8(1).u16(ex.code().wire()).str(String.valueOf(ex.getMessage()));
                        }
                    }
                }
                case SET_RETENTION -> {
                    String b = in.str();
                    String k = in.str();
                    Optional<String> v = optional(in);
                    Codec.objectVersion(out, CatalogOperations.setRetention(e, b, k, v, Codec.retention(in), in.bool()));
                }
                case SET_LEGAL_HOLD -> {
                    String b = in.str();
                    String k = in.str();
                    Optional<String> v = optional(in);
                    Codec.objectVersion(out, CatalogOperations.setLegalHold(e, b, k, v, in.bool()));
                }
                case CREATE_UPLOAD -> Codec.upload(out, CatalogOperations.createUpload(e, in.str(), in.str(),
                        Codec.metadata(in), Codec.retention(in), in.bool()));
                // PUT_PART and COMPLETE_UPLOAD end with optional checksum fields: entries logged before they
                // existed end early and apply with none.
                case PUT_PART -> Codec.list(out, CatalogOperations.putPart(e, in.str(), in.str(), in.str(), in.i32(),
                        in.str(), Codec.fileRef(in), in.atEnd() ? Map.of() : Codec.map(in)), Codec::fileRef);
                case COMPLETE_UPLOAD -> {
                    String b = in.str();
                    String k = in.str();
                    String u = in.str();
                    List<CompletedPart> parts = Codec.list(in, Codec::completedPart);
                    long minPartBytes = in.i64();
                    WriteCondition condition = Codec.condition(in);
                    Map<String, String> checksums = in.atEnd() ? Map.of() : Codec.map(in);
                    String checksumType = in.atEnd() ? "" : in.str();
                    Codec.putResult(out, CatalogOperations.completeUpload(e, b, k, u, parts, minPartBytes, condition,
                            checksums, checksumType));
                }
                case ABORT_UPLOAD -> Codec.list(out, CatalogOperations.abortUpload(e, in.str(), in.str(), in.str()),
                        Codec::fileRef);
                case REGISTER_VAULT -> Codec.vault(out, CatalogOperations.registerVault(e, Codec.vault(in)));
                case REGISTER_POD -> CatalogOperations.registerPod(e, Codec.pod(in));
                case REGISTER_STASH -> CatalogOperations.registerStash(e, Codec.stash(in));
                case SET_POD_STATE -> Codec.podStatus(out, CatalogOperations.setPodState(e, in.i32(), in.u8(),
                        PodState.ofWire(in.u8())));
                case ALLOCATE_FILE_IDS -> Codec.fileIdRange(out, CatalogOperations.allocateFileIds(e, in.i32(), in.i32()));
                case CREATE_ACCESS_KEY -> Codec.accessKey(out, CatalogOperations.createAccessKey(e, in.str(), in.str(),
                        in.str(), in.bool()));
                case DISABLE_ACCESS_KEY -> Codec.accessKey(out, CatalogOperations.disableAccessKey(e, in.str()));
                case ACK_DELETIONS -> CatalogOperations.ackDeletions(e, Codec.list(in, Wire.Reader::i64));
                default -> throw new IllegalArgumentException(op + " is not a write");
            }
            in.expectEnd();
            return out.toByteArray();
        } catch (CatalogException ex) {
            e.txn().discard();
            return error(ex.code(), ex.getMessage());
        } catch (IllegalArgumentException ex) {
            // A malformed command or a record that fails validation: the same on every peer.
            e.txn().discard();
            return error(ErrorCode.INVALID_ARGUMENT, String.valueOf(ex.getMessage()));
        }
    }

    /** Runs one read against a consistent view. */
    static byte[] read(Op op, Wire.Reader in, RocksCatalogStore store, RocksCatalogStore.View r) {
        Wire.Writer out = new Wire.Writer().u8(0);
        try {
            switch (op) {
                case GET_BUCKET -> Codec.bucket(out, CatalogOperations.bucket(r, in.str()));
                case GET_BUCKET_ACL -> out.str(AclCommands.bucketAcl(r, in.str()));
                case LIST_BUCKETS -> Codec.list(out, CatalogOperations.listBuckets(r), Codec::bucket);
                case GET_OBJECT -> Codec.objectVersion(out,
                        CatalogOperations.getObject(r, in.str(), in.str(), optional(in)));
                case LIST_OBJECTS -> Codec.objectListing(out,
                        CatalogOperations.listObjects(r, Codec.listObjectsQuery(in)));
                case LIST_VERSIONS -> Codec.versionListing(out,
                        CatalogOperations.listVersions(r, Codec.listVersionsQuery(in)));
                case LIST_PARTS -> Codec.partListing(out,
                        CatalogOperations.listParts(r, in.str(), in.str(), in.str(), in.i32(), in.i32()));
                case LIST_UPLOADS -> Codec.uploadListing(out,
                        CatalogOperations.listUploads(r, in.str(), in.str(), in.str(), in.str(), in.i32()));
                case LIST_VAULTS -> Codec.list(out, CatalogOperations.listVaults(r), Codec::vault);
                case LIST_STASHES -> Codec.list(out, CatalogOperations.listStashes(r), Codec::stash);
                case LIST_POD_STATES -> Codec.list(out, CatalogOperations.listPodStates(r), Codec::podStatus);
                case LOOKUP_ACCESS_KEY -> Codec.accessKey(out, CatalogOperations.lookupAccessKey(r, in.str()));
                case LIST_ACCESS_KEYS -> Codec.list(out, CatalogOperations.listAccessKeys(r), Codec::accessKey);
                case PENDING_DELETIONS -> Codec.list(out, CatalogOperations.pendingDeletions(r, in.i32()),
                        Codec::fileDeletion);
                case USAGE -> {
                    Usage u = CatalogOperations.usage(r, optional(in));
                    out.i64(u.storedBytes()).i64(u.objectVersions()).i64(u.capacityBytes()).i64(u.quotaBytes());
                }
                case STATE_CHECKSUM -> {
                    long index;
                    byte[] la = r.get(Table.COUNTERS, Keys.utf8("lastApplied"));
                    index = la == null ? -1 : new Wire.Reader(la, 8, 8).i64();
                    out.i64(index).i64(store.checksum(r));
                }
                default -> throw new IllegalArgumentException(op + " is not a read");
            }
            in.expectEnd();
            return out.toByteArray();
        } catch (CatalogException ex) {
            return error(ex.code(), ex.getMessage());
        } catch (IllegalArgumentException ex) {
            return error(ErrorCode.INVALID_ARGUMENT, String.valueOf(ex.getMessage()));
        }
    }

    static Optional<String> optional(Wire.Reader in) {
        boolean present = in.bool();
        String s = in.str();
        return present ? Optional.of(s) : Optional.empty();
    }

    static void optional(Wire.Writer out, Optional<String> s) {
        out.bool(s.isPresent()).str(s.orElse(""));
    }
}
