package io.shardvault.coordinator.catalog.internal;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.AccessKey;
import io.shardvault.coordinator.catalog.Account;
import io.shardvault.coordinator.catalog.AccountListing;
import io.shardvault.coordinator.catalog.Bucket;
import io.shardvault.coordinator.catalog.CatalogException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.rocksdb.RocksIterator;

/**
 * Accounts in {@link Table#ACCOUNTS} (id → Account; display names may repeat), and the legacy accounts derived from what refers to an
 * owner without a row ({@link Account}: each distinct owner string of a key or bucket made before accounts
 * existed). Deriving them, rather than writing rows for them at some upgrade step, keeps every old key with
 * its buckets without a migration entry, and keeps apply a function of the log. Ids are drawn by the client
 * and travel in the entry, as access key ids do.
 *
 * <p>Stateless, as every catalog subject. Listing and resolving a name read every key and bucket: admin
 * calls, not the request path (the S3 path reads a key by id and a bucket by name only).
 */
final class Accounts {
    /** Display names: a letter or digit, then up to 63 letters, digits and {@code . _ @ -}. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@-]{0,63}");

    private Accounts() {
    }

    static Account createAccount(Entry e, String id, String name) throws CatalogException {
        if (!NAME.matcher(name).matches()) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "bad account name '" + name
                    + "': a letter or digit, then up to 63 letters, digits and . _ @ -");
        }
        // Names may repeat (two teams may both be "backup"): the id tells them apart. Ids never do.
        if (e.txn().get(Table.ACCOUNTS, Keys.utf8(id)) != null || id.equals(Account.BOOTSTRAP_ID)
                || owners(e.txn()).referenced.containsKey(id)) {
            throw new CatalogException(ErrorCode.CONFLICT, "account id " + id + " is taken");
        }
        Account a = new Account(id, name, e.time(), false);
        Wire.Writer w = new Wire.Writer();
        account(w, a);
        e.txn().put(Table.ACCOUNTS, Keys.utf8(id), w.toByteArray());
        return a;
    }

    /**
     * The id of the account {@code idOrName} names: an account's id (created, legacy or the bootstrap key's)
     * first, else the one account with this display name. {@code NOT_FOUND} naming the command that creates
     * it; {@code INVALID_ARGUMENT} listing the ids when several accounts share the name.
     */
    static String resolve(RocksCatalogStore.Reads r, String idOrName) throws CatalogException {
        Owners owners = owners(r);
        if (owners.rows.containsKey(idOrName) || owners.referenced.containsKey(idOrName)
                || idOrName.equals(Account.BOOTSTRAP_ID)) {
            return idOrName;
        }
        List<String> named = new ArrayList<>();
        for (Account a : owners.rows.values()) {
            if (a.name().equals(idOrName)) {
                named.add(a.id());
            }
        }
        if (named.size() > 1) {
            named.sort(null);
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, named.size() + " accounts are named " + idOrName
                    + ": name one by its id (" + String.join(", ", named) + ")");
        }
        if (named.isEmpty()) {
            throw new CatalogException(ErrorCode.NOT_FOUND, "no account named " + idOrName
                    + " (create it with: shardvault admin accounts create " + idOrName + ")");
        }
        return named.get(0);
    }

    static List<AccountListing> listAccounts(RocksCatalogStore.Reads r) {
        Owners owners = owners(r);
        Map<String, Account> all = new TreeMap<>();
        for (Account a : owners.rows.values()) {
            all.put(a.id(), a);
        }
        owners.referenced.forEach((id, since) -> all.putIfAbsent(id, new Account(id, id, since, true)));
        List<AccountListing> out = new ArrayList<>();
        for (Account a : all.values()) {
            out.add(new AccountListing(a, owners.keys.getOrDefault(a.id(), 0),
                    owners.buckets.getOrDefault(a.id(), 0)));
        }
        out.sort(Comparator.comparing((AccountListing l) -> l.account().name()).thenComparing(l -> l.account().id()));
        return out;
    }

    /** The account rows, and every owner id keys and buckets refer to, with counts and the oldest time. */
    private static Owners owners(RocksCatalogStore.Reads r) {
        Owners o = new Owners();
        try (RocksIterator it = r.iterator(Table.ACCOUNTS)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                Account a = account(new Wire.Reader(it.value()));
                o.rows.put(a.id(), a);
            }
        }
        try (RocksIterator it = r.iterator(Table.ACCESS_KEYS)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                AccessKey k = AccessKeys.accessKey(new Wire.Reader(it.value()));
                o.refer(k.accountId(), k.createdAt(), o.keys);
            }
        }
        try (RocksIterator it = r.iterator(Table.BUCKETS)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                Bucket b = Buckets.bucket(new Wire.Reader(it.value()));
                o.refer(b.ownerAccessKeyId(), b.createdAt(), o.buckets);
            }
        }
        o.referenced.keySet().removeAll(o.rows.keySet());
        return o;
    }

    private static final class Owners {
        final Map<String, Account> rows = new HashMap<>();
        /** Owner ids without a row (legacy accounts) → the oldest key or bucket referring to them. */
        final Map<String, Instant> referenced = new HashMap<>();
        final Map<String, Integer> keys = new HashMap<>();
        final Map<String, Integer> buckets = new HashMap<>();

        void refer(String id, Instant at, Map<String, Integer> counts) {
            counts.merge(id, 1, Integer::sum);
            referenced.merge(id, at, (x, y) -> x.isBefore(y) ? x : y);
        }
    }

    // ---- encodings: its records, as stored and as replied ----

    /** {@code str id | str name | instant createdAt} (rows are never legacy). */
    static void account(Wire.Writer w, Account a) {
        w.str(a.id()).str(a.name());
        Codec.instant(w, a.createdAt());
    }

    static Account account(Wire.Reader r) {
        return new Account(r.str(), r.str(), Codec.instant(r), false);
    }

    /** {@code str id | str name | instant createdAt | bool legacy | u32 keys | u32 buckets}. */
    static void listing(Wire.Writer w, AccountListing l) {
        w.str(l.account().id()).str(l.account().name());
        Codec.instant(w, l.account().createdAt());
        w.bool(l.account().legacy()).i32(l.keys()).i32(l.buckets());
    }

    static AccountListing listing(Wire.Reader r) {
        Account a = new Account(r.str(), r.str(), Codec.instant(r), r.bool());
        return new AccountListing(a, r.i32(), r.i32());
    }

    // ---- commands: each client call (its fields and reply) beside the peer's handler ----

    /** CREATE_ACCOUNT: {@code str id | str name} → Account. The id is drawn here, on the client. */
    static Call<Account> createAccount(String name) {
        Objects.requireNonNull(name, "name");
        String id = AccessKeys.randomId("SVA", 17);
        return new Call<>(Op.CREATE_ACCOUNT, w -> w.str(id).str(name), Accounts::account);
    }

    static void applyCreateAccount(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        account(out, createAccount(e, in.str(), in.str()));
    }

    /** LIST_ACCOUNTS: nothing → list of AccountListing, by name. */
    static Call<List<AccountListing>> listAccounts() {
        return new Call<>(Op.LIST_ACCOUNTS, w -> { }, r -> Codec.list(r, Accounts::listing));
    }

    static void answerListAccounts(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) {
        Codec.list(out, listAccounts(r), Accounts::listing);
    }
}
