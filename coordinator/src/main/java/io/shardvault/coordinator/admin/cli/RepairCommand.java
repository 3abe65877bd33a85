package io.shardvault.coordinator.admin.cli;

import java.util.Map;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code admin repair status}: the repair queue of degraded files and this coordinator's repairs (issue #20). */
@Command(name = "repair", mixinStandardHelpOptions = true, description = "Shows the repair of degraded files.")
final class RepairCommand extends CommandGroup {
    static final ObjectName REPAIR = io.shardvault.common.jmx.MBeanRegistrations.name("Repair", "repair");
    private static final String[] ATTRIBUTES = {"RepairingHere", "DegradedFiles", "DegradedBytes",
        "OldestQueuedAgeSeconds", "ShardsRepaired", "BytesRepaired", "RepairFailures", "DroppedFiles"};

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "Degraded files and bytes, the oldest damage's age, repairs done, and the first queued files.")
    int status(@Option(names = "--limit", paramLabel = "N", defaultValue = "20",
            description = "How many queued files to list (default ${DEFAULT-VALUE}).") int limit) throws AdminException {
        return root.execute((session, out) -> {
            Map<String, Object> all = session.attributes(REPAIR, ATTRIBUTES);
            Object queued = session.invoke(REPAIR, "queued", new Object[] {limit}, new String[] {int.class.getName()});
            if (root.json) {
                all.put("queued", queued);
                out.println(Json.object(all));
                return;
            }
            out.println("REPAIR");
            out.println("  repairing here:     " + all.get("repairingHere"));
            out.println("  degraded files:     " + Table.count((Long) all.get("degradedFiles")));
            out.println("  degraded bytes:     " + Table.bytes((Long) all.get("degradedBytes")));
            out.println("  oldest damage:      " + Table.age(1000 * (Long) all.get("oldestQueuedAgeSeconds")));
            out.println("  shards repaired:    " + Table.count((Long) all.get("shardsRepaired")));
            out.println("  bytes repaired:     " + Table.bytes((Long) all.get("bytesRepaired")));
            out.println("  failures:           " + Table.count((Long) all.get("repairFailures")));
            out.println("  dropped (deleted):  " + Table.count((Long) all.get("droppedFiles")));
            out.println();
            out.println("QUEUED (first " + limit + ")");
            Table t = new Table("VAULT", "FILE", "SHARDS", "REASON", "QUEUED AT");
            for (CompositeData q : (CompositeData[]) queued) {
                t.row(q.get("vaultId"), q.get("fileId"), q.get("shards"), q.get("reason"),
                        java.time.Instant.ofEpochMilli((Long) q.get("enqueuedAtMillis")));
            }
            out.print(t.render());
        });
    }
}
