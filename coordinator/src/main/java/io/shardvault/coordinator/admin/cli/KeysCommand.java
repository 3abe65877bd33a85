package io.shardvault.coordinator.admin.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code admin keys create|list|disable|rotate-encryption}: S3 access keys. */
@Command(name = "keys", mixinStandardHelpOptions = true,
        description = "Creates, lists and disables S3 access keys; re-encrypts their secrets after a cluster key change.")
final class KeysCommand extends CommandGroup {
    static final ObjectName KEYS = io.shardvault.common.jmx.MBeanRegistrations.name("AccessKeys", "accessKeys");

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Creates an enabled key of an account and prints its id and secret (the secret is shown "
                    + "only now).")
    int create(@Option(names = "--account", required = true, paramLabel = "ACCOUNT",
            description = "The account the key belongs to (admin accounts create NAME), by id, or by name when no "
                    + "other account has it: its buckets are the key's.")
               String account,
               @Option(names = "--bucket", paramLabel = "BUCKET",
                       description = "Limit the key to this one bucket: every other is refused, and ListBuckets "
                               + "shows only it.") String bucket,
               @Option(names = "--read-only", description = "Refuse the key every operation that writes.")
               boolean readOnly,
               @Option(names = "--bypass-governance", description = "Grant s3:BypassGovernanceRetention: the key "
                       + "may delete or shorten GOVERNANCE-retained versions with x-amz-bypass-governance-retention "
                       + "(COMPLIANCE yields to no key).") boolean bypassGovernance) throws AdminException {
        return root.execute((session, out) -> {
            CompositeData k = (CompositeData) session.invoke(KEYS, "create",
                    new Object[] {account, bypassGovernance, bucket == null ? "" : bucket, readOnly},
                    new String[] {String.class.getName(), boolean.class.getName(), String.class.getName(),
                            boolean.class.getName()});
            if (root.json) {
                out.println(Json.of(k));
            } else {
                out.println("access key id:     " + k.get("accessKeyId"));
                out.println("secret key:        " + k.get("secretKey"));
                out.println("account:           " + k.get("account") + " (" + k.get("accountId") + ")");
                out.println("bucket:            " + anyIfEmpty(k.get("bucket")));
                out.println("read-only:         " + yesNo(k.get("readOnly")));
                out.println("bypass governance: " + yesNo(k.get("bypassGovernanceAllowed")));
                out.println("Store the secret now: it cannot be shown again.");
            }
        });
    }

    private static String anyIfEmpty(Object bucket) {
        return bucket == null || "".equals(bucket) ? "any of the account's" : bucket.toString();
    }

    private static String yesNo(Object flag) {
        return Boolean.TRUE.equals(flag) ? "yes" : "no";
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Lists every key (without secrets).")
    int list() throws AdminException {
        return root.execute((session, out) -> {
            CompositeData[] keys = (CompositeData[]) session.get(KEYS, "Keys");
            if (root.json) {
                out.println(Json.of(keys));
                return;
            }
            Table t = new Table("ACCESS KEY ID", "ACCOUNT", "ENABLED", "BUCKET", "READ-ONLY", "BYPASS GOVERNANCE",
                    "CREATED");
            for (CompositeData k : keys) {
                t.row(k.get("accessKeyId"), k.get("account"), yesNo(k.get("enabled")),
                        "".equals(k.get("bucket")) ? "*" : k.get("bucket"), yesNo(k.get("readOnly")),
                        yesNo(k.get("bypassGovernanceAllowed")), k.get("createdAt"));
            }
            out.print(t.render());
        });
    }

    @Command(name = "disable", mixinStandardHelpOptions = true,
            description = "Disables a key: requests signed with it are refused from now on.")
    int disable(@Parameters(paramLabel = "ACCESS_KEY_ID", description = "The key to disable.") String id)
            throws AdminException {
        return root.execute((session, out) -> {
            CompositeData k = (CompositeData) session.invoke(KEYS, "disable", new Object[] {id},
                    new String[] {String.class.getName()});
            if (root.json) {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("accessKeyId", k.get("accessKeyId"));
                r.put("enabled", k.get("enabled"));
                out.println(Json.object(r));
            } else {
                out.println("access key " + k.get("accessKeyId") + " disabled");
            }
        });
    }

    @Command(name = "rotate-encryption", mixinStandardHelpOptions = true,
            description = "Re-encrypts every stored secret under the newest key of catalog.secrets.keyFile; then the "
                    + "older keys can leave the file (docs/SECURITY.md). Idempotent.")
    int rotateEncryption() throws AdminException {
        return root.execute((session, out) -> {
            Object resealed = session.invoke(KEYS, "rotateEncryption", new Object[0], new String[0]);
            if (root.json) {
                out.println(Json.object(Map.of("reencrypted", resealed)));
            } else {
                out.println(resealed + " secrets re-encrypted under the newest cluster key");
            }
        });
    }
}
