package io.shardvault.coordinator.admin.cli;

import java.io.PrintWriter;
import java.time.Instant;
import javax.management.openmbean.CompositeData;

/** How {@code admin pod rebuild|decommission|rebuild-status} print a pod rebuild job (issue #20). */
final class PodRebuildFormat {
    private PodRebuildFormat() {
    }

    /** One job as lines: what it rebuilds and where it is. */
    static void job(PrintWriter out, CompositeData j) {
        long done = (Long) j.get("filesDone");
        long total = (Long) j.get("filesTotal");
        boolean check = "check".equals(j.get("mode"));
        boolean copy = "decommission".equals(j.get("mode"));
        out.println((copy ? "POD DECOMMISSION  vault " : "POD REBUILD  vault ") + j.get("vaultId") + ", pod "
                + j.get("shardIndex") + (copy ? " from " + j.get("source") : "") + " onto " + j.get("target")
                + "  (job " + j.get("jobId") + (check ? ", check only" : "") + ")");
        out.println("  state:            " + j.get("state") + (Boolean.TRUE.equals(j.get("runningHere"))
                ? " (running on this coordinator)" : ""));
        out.println("  files:            " + Table.count(done) + " of ~" + Table.count(total)
                + (total > 0 ? String.format(" (%d%%)", Math.min(100, done * 100 / total)) : ""));
        out.println("  shards " + (check ? "missing:   " : copy ? "moved:     " : "rebuilt:   ") + Table.count((Long) j.get("shardsRebuilt")));
        out.println("  bytes rebuilt:    " + Table.bytes((Long) j.get("bytesRebuilt")));
        out.println("  failed (queued):  " + Table.count((Long) j.get("failures")));
        out.println("  rate:             " + Table.bytes((Long) j.get("bytesPerSecond")) + "/s, "
                + String.format("%.1f", (Double) j.get("filesPerSecond")) + " files/s");
        long eta = (Long) j.get("etaSeconds");
        out.println("  eta:              " + ("DONE".equals(j.get("state")) ? "-" : eta < 0 ? "unknown"
                : Table.age(1000 * eta)));
        out.println("  started:          " + Instant.ofEpochMilli((Long) j.get("startedAtMillis")));
        out.println("  checkpointed:     " + Instant.ofEpochMilli((Long) j.get("updatedAtMillis"))
                + " (last file " + j.get("position") + ")");
    }
}
