package io.shardvault.coordinator.admin.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code admin stash status|retry-purges}: the stash servers and the backlog per pod slot. */
@Command(name = "stash", mixinStandardHelpOptions = true, description = "Shows the stash and its backlog per pod slot.")
final class StashCommand extends CommandGroup {
    static final ObjectName STASH = io.shardvault.common.jmx.MBeanRegistrations.name("Stash", "stash");

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "Stash servers (entries, bytes, oldest) and per pod slot the chunks its pod has not fsynced.")
    int status() throws AdminException {
        return root.execute((session, out) -> {
            Object servers = session.get(STASH, "Servers");
            Object slots = session.get(STASH, "Slots");
            if (root.json) {
                Map<String, Object> all = new LinkedHashMap<>();
                all.put("servers", servers);
                all.put("slots", slots);
                out.println(Json.object(all));
                return;
            }
            StatusCommand.printStashServers(out, (CompositeData[]) servers);
            out.println();
            out.println("BACKLOG PER POD SLOT");
            Table t = new Table("VAULT", "SHARD", "STASH SERVER", "ENTRIES", "BYTES", "OLDEST", "NOTE");
            for (CompositeData s : (CompositeData[]) slots) {
                t.row(s.get("vaultId"), s.get("shardIndex"), s.get("stashServer"),
                        ((Boolean) s.get("complete") ? "" : ">=") + s.get("entries"), Table.bytes((Long) s.get("bytes")),
                        Table.age((Long) s.get("oldestEntryAgeMillis")), s.get("error"));
            }
            out.print(t.render());
        });
    }

    @Command(name = "retry-purges", mixinStandardHelpOptions = true,
            description = "Asks every pod of a vault to retry its purge deliveries to the stash now.")
    int retryPurges(@Option(names = "--vault", paramLabel = "ID", description = "The vault (default: the only one).")
                    Integer vault) throws AdminException {
        return root.execute((session, out) -> {
            int v = vault != null ? vault : PodCommand.onlyVault(session);
            int acked = (Integer) session.invoke(STASH, "retryPurgesNow", new Object[] {v},
                    new String[] {int.class.getName()});
            if (root.json) {
                out.println("{\"vaultId\":" + v + ",\"podsRetrying\":" + acked + "}");
            } else {
                out.println(acked + " pods of vault " + v + " are retrying their purges");
            }
        });
    }
}
