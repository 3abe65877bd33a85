package io.shardvault.coordinator.catalog.internal;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.AccessKey;
import io.shardvault.coordinator.catalog.AccessKeyInfo;
import io.shardvault.coordinator.catalog.CatalogException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BinaryOperator;
import org.rocksdb.RocksIterator;

/**
 * Access keys in {@link Table#ACCESS_KEYS}, each of an account ({@link Accounts}) and possibly limited to one
 * bucket or to reads. Ids and secrets are drawn by the client and travel in the entry, so apply stays
 * deterministic; the secret travels and is stored as the client sealed it ({@link
 * io.shardvault.coordinator.catalog.SecretCipher}), so neither the Raft log nor RocksDB holds it in the clear.
 *
 * <p>Stateless, as every catalog subject.
 */
final class AccessKeys {
    private static final SecureRandom SECRETS = new SecureRandom();
    private static final char[] ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".toCharArray();

    private AccessKeys() {
    }

    static AccessKey createAccessKey(Entry e, String id, String secret, String accountId, boolean bypass,
                                     Optional<String> bucket, boolean readOnly) throws CatalogException {
        if (e.txn().get(Table.ACCESS_KEYS, Keys.utf8(id)) != null) {
            throw new CatalogException(ErrorCode.CONFLICT, "access key id " + id + " is taken");
        }
        AccessKey k = new AccessKey(id, secret, accountId, true, bypass, e.time(), bucket, readOnly);
        putAccessKey(e, k);
        return k;
    }

    private static void putAccessKey(Entry e, AccessKey k) {
        Wire.Writer w = new Wire.Writer();
        accessKey(w, k);
        e.txn().put(Table.ACCESS_KEYS, Keys.utf8(k.accessKeyId()), w.toByteArray());
    }

    static AccessKey lookupAccessKey(RocksCatalogStore.Reads r, String id) throws CatalogException {
        byte[] v = r.get(Table.ACCESS_KEYS, Keys.utf8(id));
        if (v == null) {
            throw new CatalogException(ErrorCode.INVALID_ACCESS_KEY, "unknown access key " + id);
        }
        return accessKey(new Wire.Reader(v));
    }

    static AccessKey disableAccessKey(Entry e, String id) throws CatalogException {
        AccessKey nk = lookupAccessKey(e.txn(), id).disabled();
        putAccessKey(e, nk);
        return nk;
    }

    static List<AccessKey> listAccessKeys(RocksCatalogStore.Reads r) {
        List<AccessKey> out = new ArrayList<>();
        try (RocksIterator it = r.iterator(Table.ACCESS_KEYS)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                out.add(accessKey(new Wire.Reader(it.value())));
            }
        }
        return out;
    }

    // ---- encodings: its records, as stored and as replied ----

    private static final int BYPASS = 1;
    private static final int READ_ONLY = 2;
    private static final int ONE_BUCKET = 4;

    /**
     * {@code str id | str secret | str accountId | bool enabled | u8 grants | instant createdAt [| str bucket]},
     * where grants was a bool (bypass governance) before keys could be restricted: bit 0 bypass governance,
     * bit 1 read-only, bit 2 a bucket follows. A key without restrictions is byte for byte what older
     * builds wrote and read.
     */
    static void accessKey(Wire.Writer w, AccessKey k) {
        w.str(k.accessKeyId()).str(k.secretKey());
        restOfKey(w, k.info());
    }

    static AccessKey accessKey(Wire.Reader r) {
        String id = r.str();
        String secret = r.str();
        AccessKeyInfo k = restOfKey(r, id);
        return new AccessKey(id, secret, k.accountId(), k.enabled(), k.bypassGovernanceAllowed(), k.createdAt(),
                k.bucket(), k.readOnly());
    }

    /** {@code str id | str accountId | bool enabled | u8 grants | instant createdAt [| str bucket]}: no secret. */
    static void accessKeyInfo(Wire.Writer w, AccessKeyInfo k) {
        w.str(k.accessKeyId());
        restOfKey(w, k);
    }

    static AccessKeyInfo accessKeyInfo(Wire.Reader r) {
        return restOfKey(r, r.str());
    }

    /** A key's fields after its id and secret. */
    private static void restOfKey(Wire.Writer w, AccessKeyInfo k) {
        int grants = (k.bypassGovernanceAllowed() ? BYPASS : 0) | (k.readOnly() ? READ_ONLY : 0)
                | (k.bucket().isPresent() ? ONE_BUCKET : 0);
        w.str(k.accountId()).bool(k.enabled()).u8(grants);
        Codec.instant(w, k.createdAt());
        k.bucket().ifPresent(w::str);
    }

    private static AccessKeyInfo restOfKey(Wire.Reader r, String id) {
        String account = r.str();
        boolean enabled = r.bool();
        int grants = r.u8();
        if (grants > (BYPASS | READ_ONLY | ONE_BUCKET)) {
            throw new IllegalArgumentException("bad access key grants " + grants);
        }
        Instant createdAt = Codec.instant(r);
        Optional<String> bucket = (grants & ONE_BUCKET) != 0 ? Optional.of(r.str()) : Optional.empty();
        return new AccessKeyInfo(id, account, enabled, (grants & BYPASS) != 0, createdAt, bucket,
                (grants & READ_ONLY) != 0);
    }

    // ---- commands: each client call (its fields and reply) beside the peer's handler ----

    /**
     * CREATE_ACCESS_KEY: {@code str id | str secret | str account | bool bypassGovernance | str bucket ("" for
     * any) | bool readOnly} → AccessKey, where {@code account} is an account's id or display name, resolved to its
     * id at apply ({@link Accounts#resolve}). An entry of an older build ends after
     * {@code bypassGovernance}, and its {@code account} is the free-text owner it named, kept as is (that
     * owner is then a legacy {@link io.shardvault.coordinator.catalog.Account}). The id and secret are drawn
     * here, on the client: apply must be deterministic; {@code seal} turns (id, secret) into what is stored.
     */
    static Call<AccessKey> createAccessKey(String account, boolean bypassGovernanceAllowed,
                                           Optional<String> bucket, boolean readOnly, BinaryOperator<String> seal) {
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(bucket, "bucket");
        String id = randomId("SV", 18);
        String secretKey = seal.apply(id, newSecret());
        return new Call<>(Op.CREATE_ACCESS_KEY, w -> w.str(id).str(secretKey).str(account)
                .bool(bypassGovernanceAllowed).str(bucket.orElse("")).bool(readOnly), AccessKeys::accessKey);
    }

    /** CREATE_ACCESS_KEY as builds before accounts wrote it: for tests that replay such entries. */
    static Call<AccessKey> createLegacyAccessKey(String owner, boolean bypassGovernanceAllowed) {
        Objects.requireNonNull(owner, "owner");
        String id = randomId("SV", 18);
        String secretKey = newSecret();
        return new Call<>(Op.CREATE_ACCESS_KEY, w -> w.str(id).str(secretKey).str(owner).bool(bypassGovernanceAllowed),
                AccessKeys::accessKey);
    }

    private static String newSecret() {
        byte[] secret = new byte[30];
        SECRETS.nextBytes(secret);
        return Base64.getEncoder().encodeToString(secret);
    }

    /** {@code prefix} and {@code n} random characters of an alphabet that reads unambiguously (base32). */
    static String randomId(String prefix, int n) {
        StringBuilder sb = new StringBuilder(prefix.length() + n).append(prefix);
        for (int i = 0; i < n; i++) {
            sb.append(ID_CHARS[SECRETS.nextInt(ID_CHARS.length)]);
        }
        return sb.toString();
    }

    static void applyCreateAccessKey(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        String id = in.str();
        String secret = in.str();
        String account = in.str();
        boolean bypass = in.bool();
        if (in.atEnd()) {
            accessKey(out, createAccessKey(e, id, secret, account, bypass, Optional.empty(), false));
            return;
        }
        String bucket = in.str();
        boolean readOnly = in.bool();
        if (!bucket.isEmpty() && !Buckets.validName(bucket)) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "bad bucket name '" + bucket + "'");
        }
        accessKey(out, createAccessKey(e, id, secret, Accounts.resolve(e.txn(), account), bypass,
                bucket.isEmpty() ? Optional.empty() : Optional.of(bucket), readOnly));
    }

    /** DISABLE_ACCESS_KEY: {@code str id} → AccessKey. */
    static Call<AccessKey> disableAccessKey(String accessKeyId) {
        return new Call<>(Op.DISABLE_ACCESS_KEY, w -> w.str(accessKeyId), AccessKeys::accessKey);
    }

    static void applyDisableAccessKey(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        accessKey(out, disableAccessKey(e, in.str()));
    }

    /**
     * RESEAL_ACCESS_KEY: {@code str id | str expected | str replacement} → bool: stores {@code replacement} as
     * the key's secret if its stored secret is still {@code expected}, so a rotation that races another, or is
     * retried, changes nothing it did not read. The replacement is the same secret sealed under the newest
     * cluster key, sealed on the client like a new key's.
     */
    static Call<Boolean> resealAccessKey(String accessKeyId, String expected, String replacement) {
        return new Call<>(Op.RESEAL_ACCESS_KEY, w -> w.str(accessKeyId).str(expected).str(replacement),
                Wire.Reader::bool);
    }

    static void applyResealAccessKey(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        AccessKey k = lookupAccessKey(e.txn(), in.str());
        String expected = in.str();
        String replacement = in.str();
        boolean swap = k.secretKey().equals(expected);
        if (swap) {
            putAccessKey(e, k.withSecret(replacement));
        }
        out.bool(swap);
    }

    /** LOOKUP_ACCESS_KEY: {@code str id} → AccessKey. */
    static Call<AccessKey> lookupAccessKey(String accessKeyId) {
        return new Call<>(Op.LOOKUP_ACCESS_KEY, w -> w.str(accessKeyId), AccessKeys::accessKey);
    }

    static void answerLookupAccessKey(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out)
            throws CatalogException {
        accessKey(out, lookupAccessKey(r, in.str()));
    }

    /** LIST_ACCESS_KEYS: nothing → list of AccessKeyInfo (an AccessKey's encoding without its secret). */
    static Call<List<AccessKeyInfo>> listAccessKeys() {
        return new Call<>(Op.LIST_ACCESS_KEYS, w -> { }, r -> Codec.list(r, AccessKeys::accessKeyInfo));
    }

    static void answerListAccessKeys(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) {
        Codec.list(out, listAccessKeys(r), (w, k) -> accessKeyInfo(w, k.info()));
    }

    /** LIST_SEALED_ACCESS_KEYS: nothing → list of AccessKey, each secret as stored (sealed). */
    static Call<List<AccessKey>> listSealedAccessKeys() {
        return new Call<>(Op.LIST_SEALED_ACCESS_KEYS, w -> { }, r -> Codec.list(r, AccessKeys::accessKey));
    }

    static void answerListSealedAccessKeys(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) {
        Codec.list(out, listAccessKeys(r), AccessKeys::accessKey);
    }
}
