package io.shardvault.coordinator.admin;

import io.shardvault.common.jmx.Description;

/** {@code io.shardvault:type=AccessKeys,name=accessKeys}: the S3 access keys in the catalog. */
@Description("S3 access keys kept in the catalog, each of an account: create, list, disable, and re-encrypt their "
        + "secrets under the newest cluster key. Secrets are shown only at creation.")
public interface AccessKeysMXBean {
    /** The account parameter's description. */
    String ACCOUNT = "The account: its id, or its display name when no other account has it.";

    @Description("Every access key (without secrets).")
    AccessKeyView[] getKeys();

    @Description("Every access key (without secrets).")
    AccessKeyView[] list();

    @Description("Creates an enabled access key of an account; the result holds its secret, shown this once.")
    NewAccessKeyView create(@Description(value = ACCOUNT, name = "account") String account);

    @Description("Creates an enabled access key of an account, granted s3:BypassGovernanceRetention or not (it may "
            + "then delete or shorten GOVERNANCE-retained versions with x-amz-bypass-governance-retention: true; "
            + "COMPLIANCE yields to no key); the result holds its secret, shown this once.")
    NewAccessKeyView create(@Description(value = ACCOUNT, name = "account") String account,
                            @Description(value = "Grant s3:BypassGovernanceRetention.", name = "bypassGovernance")
                            boolean bypassGovernance);

    @Description("Creates an enabled access key of an account, possibly limited to one bucket and to reads; the "
            + "result holds its secret, shown this once.")
    NewAccessKeyView create(@Description(value = ACCOUNT, name = "account") String account,
                            @Description(value = "Grant s3:BypassGovernanceRetention.", name = "bypassGovernance")
                            boolean bypassGovernance,
                            @Description(value = "The one bucket the key may use; empty for all the account's.",
                                    name = "bucket") String bucket,
                            @Description(value = "Refuse every operation that writes.", name = "readOnly")
                            boolean readOnly);

    @Description("Re-encrypts every stored secret not under the newest key of catalog.secrets.keyFile (older keys' and "
            + "plaintext ones from before encryption) under it; idempotent. Afterwards the older keys can leave the "
            + "file (docs/SECURITY.md). Returns how many secrets were re-encrypted.")
    int rotateEncryption();

    @Description("Disables an access key: requests signed with it are refused from now on.")
    AccessKeyView disable(@Description(value = "The access key id.", name = "accessKeyId") String accessKeyId);
}
