package io.shardvault.coordinator.admin;

import io.shardvault.common.jmx.Description;

/** {@code io.shardvault:type=AccessKeys,name=accessKeys}: the S3 access keys in the catalog. */
@Description("S3 access keys kept in the catalog: create, list, disable. Secrets are shown only at creation.")
public interface AccessKeysMXBean {
    @Description("Every access key (without secrets).")
    AccessKeyView[] getKeys();

    @Description("Every access key (without secrets).")
    AccessKeyView[] list();

    @Description("Creates an enabled access key; the result holds its secret, shown this once.")
    NewAccessKeyView create(@Description(value = "Who holds the key (a name for operators).", name = "owner")
                            String owner);

    @Description("Creates an enabled access key, granted s3:BypassGovernanceRetention or not (it may then delete "
            + "or shorten GOVERNANCE-retained versions with x-amz-bypass-governance-retention: true; COMPLIANCE "
            + "yields to no key); the result holds its secret, shown this once.")
    NewAccessKeyView create(@Description(value = "Who holds the key (a name for operators).", name = "owner")
                            String owner,
                            @Description(value = "Grant s3:BypassGovernanceRetention.", name = "bypassGovernance")
                            boolean bypassGovernance);

    @Description("Disables an access key: requests signed with it are refused from now on.")
    AccessKeyView disable(@Description(value = "The access key id.", name = "accessKeyId") String accessKeyId);
}
