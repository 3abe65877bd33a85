package io.shardvault.coordinator.admin.internal;

import io.shardvault.coordinator.admin.AccessKeyView;
import io.shardvault.coordinator.admin.AccessKeysMXBean;
import io.shardvault.coordinator.admin.NewAccessKeyView;
import io.shardvault.coordinator.catalog.AccessKey;
import io.shardvault.coordinator.catalog.AccessKeyInfo;
import io.shardvault.coordinator.catalog.AccountListing;
import io.shardvault.coordinator.catalog.Catalog;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The AccessKeys MXBean over the catalog. Never logs or lists a secret. Thread-safe. */
public final class AccessKeysBean implements AccessKeysMXBean {
    private static final Logger LOG = LoggerFactory.getLogger(AccessKeysBean.class);

    private final Catalog catalog;

    public AccessKeysBean(Catalog catalog) {
        this.catalog = catalog;
    }

    private static AccessKeyView view(AccessKeyInfo k, Map<String, String> names) {
        return new AccessKeyView(k.accessKeyId(), k.accountId(), names.getOrDefault(k.accountId(), k.accountId()),
                k.enabled(), k.bypassGovernanceAllowed(), k.bucket().orElse(""), k.readOnly(),
                k.createdAt().toString());
    }

    /** Account id → display name. */
    private Map<String, String> accountNames() {
        return Await.get(catalog.listAccounts(), "listing accounts").stream().map(AccountListing::account)
                .collect(Collectors.toMap(a -> a.id(), a -> a.name()));
    }

    @Override
    public AccessKeyView[] getKeys() {
        return list();
    }

    @Override
    public AccessKeyView[] list() {
        Map<String, String> names = accountNames();
        return Await.get(catalog.listAccessKeys(), "listing access keys").stream().map(k -> view(k, names))
                .toArray(AccessKeyView[]::new);
    }

    @Override
    public NewAccessKeyView create(String account) {
        return create(account, false);
    }

    @Override
    public NewAccessKeyView create(String account, boolean bypassGovernance) {
        return create(account, bypassGovernance, "", false);
    }

    @Override
    public NewAccessKeyView create(String account, boolean bypassGovernance, String bucket, boolean readOnly) {
        if (account == null || account.isBlank()) {
            throw new IllegalArgumentException("an access key needs an account (admin accounts create NAME)");
        }
        String given = account.strip();
        Optional<String> oneBucket = bucket == null || bucket.isBlank() ? Optional.empty() : Optional.of(bucket.strip());
        AccessKey k = Await.call(() -> catalog.createAccessKey(given, bypassGovernance, oneBucket, readOnly),
                "creating an access key for account " + given);
        String name = accountNames().getOrDefault(k.accountId(), k.accountId());
        LOG.info("operator created access key={} account={} ({}) bypassGovernance={} bucket={} readOnly={}",
                k.accessKeyId(), name, k.accountId(), k.bypassGovernanceAllowed(), k.bucket().orElse("*"),
                k.readOnly());
        return new NewAccessKeyView(k.accessKeyId(), k.secretKey(), k.accountId(), name, k.bypassGovernanceAllowed(),
                k.bucket().orElse(""), k.readOnly());
    }

    @Override
    public int rotateEncryption() {
        int resealed = Await.call(catalog::resealSecrets, "re-encrypting access key secrets");
        LOG.info("operator re-encrypted {} access key secrets under the newest cluster key", resealed);
        return resealed;
    }

    @Override
    public AccessKeyView disable(String accessKeyId) {
        AccessKey k = Await.call(() -> catalog.disableAccessKey(accessKeyId), "disabling access key " + accessKeyId);
        LOG.info("operator disabled access key={}", k.accessKeyId());
        return view(k.info(), accountNames());
    }
}
