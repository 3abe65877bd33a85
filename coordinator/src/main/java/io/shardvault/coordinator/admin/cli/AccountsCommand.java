package io.shardvault.coordinator.admin.cli;

import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code admin accounts create|list}: the accounts that own buckets and hold keys. */
@Command(name = "accounts", mixinStandardHelpOptions = true,
        description = "Creates and lists accounts: they own buckets and hold access keys.")
final class AccountsCommand extends CommandGroup {
    static final ObjectName ACCOUNTS = io.shardvault.common.jmx.MBeanRegistrations.name("Accounts", "accounts");

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Creates an account with a fresh id; then: admin keys create --account NAME.")
    int create(@Parameters(paramLabel = "NAME", description = "The display name (names may repeat; the printed id tells "
            + "accounts apart): a letter or digit, then "
            + "up to 63 letters, digits and . _ @ -") String name) throws AdminException {
        return root.execute((session, out) -> {
            CompositeData a = (CompositeData) session.invoke(ACCOUNTS, "create", new Object[] {name},
                    new String[] {String.class.getName()});
            if (root.json) {
                out.println(Json.of(a));
            } else {
                out.println("account " + a.get("name") + " created, id " + a.get("id"));
            }
        });
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "Lists every account with its number of keys and buckets.")
    int list() throws AdminException {
        return root.execute((session, out) -> {
            CompositeData[] accounts = (CompositeData[]) session.get(ACCOUNTS, "Accounts");
            if (root.json) {
                out.println(Json.of(accounts));
                return;
            }
            Table t = new Table("NAME", "ID", "CREATED", "KEYS", "BUCKETS", "LEGACY");
            for (CompositeData a : accounts) {
                t.row(a.get("name"), a.get("id"), a.get("createdAt"), a.get("keys"), a.get("buckets"),
                        Boolean.TRUE.equals(a.get("legacy")) ? "yes" : "no");
            }
            out.print(t.render());
        });
    }
}
