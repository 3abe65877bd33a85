package io.shardvault.coordinator.admin.cli;

import java.util.Map;
import javax.management.ObjectName;
import picocli.CommandLine.Command;

/** {@code admin collect status}: the orphan collector's last pass and what it collected (issue #20). */
@Command(name = "collect", mixinStandardHelpOptions = true, description = "Shows the collection of orphaned files.")
final class CollectCommand extends CommandGroup {
    static final ObjectName COLLECT = io.shardvault.common.jmx.MBeanRegistrations.name("Collect", "collect");
    private static final String[] ATTRIBUTES = {"CollectingHere", "OrphansFound", "OrphansWaiting", "FilesCollected",
        "ShardsDeleted", "StashEntriesPurged", "StashBytesPurged", "CollectFailures", "LastPassMillis"};

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "Orphans found by the last pass, files, shards and stash entries collected, the last pass.")
    int status() throws AdminException {
        return root.execute((session, out) -> {
            Map<String, Object> all = session.attributes(COLLECT, ATTRIBUTES);
            if (root.json) {
                out.println(Json.object(all));
                return;
            }
            long last = (Long) all.get("lastPassMillis");
            out.println("ORPHAN COLLECTION");
            out.println("  collecting here:    " + all.get("collectingHere"));
            out.println("  last pass:          " + (last == 0 ? "none yet" : java.time.Instant.ofEpochMilli(last)));
            out.println("  orphans found:      " + Table.count((Long) all.get("orphansFound")));
            out.println("  within grace:       " + Table.count((Long) all.get("orphansWaiting")));
            out.println("  files collected:    " + Table.count((Long) all.get("filesCollected")));
            out.println("  shards deleted:     " + Table.count((Long) all.get("shardsDeleted")));
            out.println("  stash entries:      " + Table.count((Long) all.get("stashEntriesPurged")));
            out.println("  stash bytes:        " + Table.bytes((Long) all.get("stashBytesPurged")));
            out.println("  failures:           " + Table.count((Long) all.get("collectFailures")));
        });
    }
}
