package io.shardvault.coordinator.catalog.internal;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.AccessKey;
import io.shardvault.coordinator.catalog.CatalogException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import org.rocksdb.RocksIterator;

/**
 * Access keys in {@link Table#ACCESS_KEYS} (secrets kept as is: SigV4 needs them). Ids and secrets are
 * drawn by the client and travel in the entry, so apply stays deterministic.
 *
 * <p>Stateless, as every catalog subject.
 */
final class AccessKeys {
    private static final SecureRandom SECRETS = new SecureRandom();
    private static final char[] ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".toCharArray();

    private AccessKeys() {
    }

    static AccessKey createAccessKey(Entry e, String id, String secret, String owner, boolean bypass)
            throws CatalogException {
        if (e.txn().get(Table.ACCESS_KEYS, Keys.utf8(id)) != null) {
            throw new CatalogException(ErrorCode.CONFLICT, "access key id " + id + " is taken");
        }
        AccessKey k = new AccessKey(id, secret, owner, true, bypass, e.time());
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
        AccessKey k = lookupAccessKey(e.txn(), id);
        AccessKey nk = new AccessKey(k.accessKeyId(), k.secretKey(), k.owner(), false, k.bypassGovernanceAllowed(),
                k.createdAt());
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

    static void accessKey(Wire.Writer w, AccessKey k) {
        w.str(k.accessKeyId()).str(k.secretKey()).str(k.owner()).bool(k.enabled()).bool(k.bypassGovernanceAllowed());
        Codec.instant(w, k.createdAt());
    }

    static AccessKey accessKey(Wire.Reader r) {
        return new AccessKey(r.str(), r.str(), r.str(), r.bool(), r.bool(), Codec.instant(r));
    }

    // ---- commands: each client call (its fields and reply) beside the peer's handler ----

    /**
     * CREATE_ACCESS_KEY: {@code str id | str secret | str owner | bool bypassGovernance} → AccessKey. The id
     * and secret are drawn here, on the client: apply must be deterministic.
     */
    static Call<AccessKey> createAccessKey(String owner, boolean bypassGovernanceAllowed) {
        Objects.requireNonNull(owner, "owner");
        String id = "SV" + randomString(ID_CHARS, 18);
        byte[] secret = new byte[30];
        SECRETS.nextBytes(secret);
        String secretKey = Base64.getEncoder().encodeToString(secret);
        return new Call<>(Op.CREATE_ACCESS_KEY, w -> w.str(id).str(secretKey).str(owner).bool(bypassGovernanceAllowed),
                AccessKeys::accessKey);
    }

    private static String randomString(char[] alphabet, int n) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            sb.append(alphabet[SECRETS.nextInt(alphabet.length)]);
        }
        return sb.toString();
    }

    static void applyCreateAccessKey(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        accessKey(out, createAccessKey(e, in.str(), in.str(), in.str(), in.bool()));
    }

    /** DISABLE_ACCESS_KEY: {@code str id} → AccessKey. */
    static Call<AccessKey> disableAccessKey(String accessKeyId) {
        return new Call<>(Op.DISABLE_ACCESS_KEY, w -> w.str(accessKeyId), AccessKeys::accessKey);
    }

    static void applyDisableAccessKey(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        accessKey(out, disableAccessKey(e, in.str()));
    }

    /** LOOKUP_ACCESS_KEY: {@code str id} → AccessKey. */
    static Call<AccessKey> lookupAccessKey(String accessKeyId) {
        return new Call<>(Op.LOOKUP_ACCESS_KEY, w -> w.str(accessKeyId), AccessKeys::accessKey);
    }

    static void answerLookupAccessKey(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out)
            throws CatalogException {
        accessKey(out, lookupAccessKey(r, in.str()));
    }

    /** LIST_ACCESS_KEYS: nothing → list of AccessKey. */
    static Call<List<AccessKey>> listAccessKeys() {
        return new Call<>(Op.LIST_ACCESS_KEYS, w -> { }, r -> Codec.list(r, AccessKeys::accessKey));
    }

    static void answerListAccessKeys(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) {
        Codec.list(out, listAccessKeys(r), AccessKeys::accessKey);
    }
}
