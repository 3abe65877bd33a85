package io.shardvault.coordinator.admin.internal;

import io.shardvault.coordinator.admin.AccessKeyView;
import io.shardvault.coordinator.admin.AccessKeysMXBean;
import io.shardvault.coordinator.admin.NewAccessKeyView;
import io.shardvault.coordinator.catalog.AccessKey;
import io.shardvault.coordinator.catalog.Catalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The AccessKeys MXBean over the catalog. Never logs or lists a secret. Thread-safe. */
public final class AccessKeysBean implements AccessKeysMXBean {
    private static final Logger LOG = LoggerFactory.getLogger(AccessKeysBean.class);

    private final Catalog catalog;

    public AccessKeysBean(Catalog catalog) {
        this.catalog = catalog;
    }

    private static AccessKeyView view(AccessKey k) {
        return new AccessKeyView(k.accessKeyId(), k.owner(), k.enabled(), k.bypassGovernanceAllowed(),
                k.createdAt().toString());
    }

    @Override
    public AccessKeyView[] getKeys() {
        return list();
    }

    @Override
    public AccessKeyView[] list() {
        return Await.get(catalog.listAccessKeys(), "listing access keys").stream().map(AccessKeysBean::view)
                .toArray(AccessKeyView[]::new);
    }

    @Override
    public NewAccessKeyView create(String owner) {
        return create(owner, false);
    }

    @Override
    public NewAccessKeyView create(String owner, boolean bypassGovernance) {
        if (owner == null || owner.isBlank()) {
            throw new IllegalArgumentException("an access key needs an owner (a name for who holds it)");
        }
        AccessKey k = Await.call(() -> catalog.createAccessKey(owner.strip(), bypassGovernance),
                "creating an access key");
        LOG.info("operator created access key={} owner={} bypassGovernance={}", k.accessKeyId(), k.owner(),
                k.bypassGovernanceAllowed());
        return new NewAccessKeyView(k.accessKeyId(), k.secretKey(), k.owner(), k.bypassGovernanceAllowed());
    }

    @Override
    public AccessKeyView disable(String accessKeyId) {
        AccessKey k = Await.call(() -> catalog.disableAccessKey(accessKeyId), "disabling access key " + accessKeyId);
        LOG.info("operator disabled access key={}", k.accessKeyId());
        return view(k);
    }
}
