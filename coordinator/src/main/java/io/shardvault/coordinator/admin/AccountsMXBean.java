package io.shardvault.coordinator.admin;

import io.shardvault.common.jmx.Description;

/** {@code io.shardvault:type=Accounts,name=accounts}: the accounts in the catalog (issue #21). */
@Description("Accounts own buckets and hold access keys; keys of one account never see another's buckets.")
public interface AccountsMXBean {
    @Description("Every account (legacy owners of keys made before accounts included), with key and bucket counts.")
    AccountView[] getAccounts();

    @Description("Every account, as the Accounts attribute.")
    AccountView[] list();

    @Description("Creates an account with a fresh id (display names may repeat; the id tells accounts apart).")
    AccountView create(@Description(value = "The account's display name.", name = "name") String name);
}
