package io.shardvault.coordinator.admin.internal;

import io.shardvault.coordinator.admin.AccountView;
import io.shardvault.coordinator.admin.AccountsMXBean;
import io.shardvault.coordinator.catalog.Account;
import io.shardvault.coordinator.catalog.AccountListing;
import io.shardvault.coordinator.catalog.Catalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The Accounts MXBean over the catalog. Thread-safe. */
public final class AccountsBean implements AccountsMXBean {
    private static final Logger LOG = LoggerFactory.getLogger(AccountsBean.class);

    private final Catalog catalog;

    public AccountsBean(Catalog catalog) {
        this.catalog = catalog;
    }

    private static AccountView view(AccountListing l) {
        Account a = l.account();
        return new AccountView(a.id(), a.name(), a.createdAt().toString(), a.legacy(), l.keys(), l.buckets());
    }

    @Override
    public AccountView[] getAccounts() {
        return list();
    }

    @Override
    public AccountView[] list() {
        return Await.get(catalog.listAccounts(), "listing accounts").stream().map(AccountsBean::view)
                .toArray(AccountView[]::new);
    }

    @Override
    public AccountView create(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("an account needs a name");
        }
        Account a = Await.call(() -> catalog.createAccount(name.strip()), "creating account " + name.strip());
        LOG.info("operator created account={} id={}", a.name(), a.id());
        return view(new AccountListing(a, 0, 0));
    }
}
