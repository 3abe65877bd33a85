package io.shardvault.coordinator.admin.cli;

import java.io.PrintWriter;
import javax.management.openmbean.CompositeData;

/** {@code admin pod scrub-status} as text: one row per pod from its {@code scrub} view. Stateless. */
final class ScrubFormat {
    private ScrubFormat() {
    }

    static void table(PrintWriter out, CompositeData[] pods) {
        out.println("SCRUBBING");
        Table t = new Table("VAULT", "SHARD", "ADDRESS", "RATE", "PASS", "NOW", "PROGRESS", "POSITION",
                "LAST PASS ENDED", "TOOK", "FILES", "BYTES", "CORRUPT", "MISSING", "HELD");
        for (CompositeData p : pods) {
            CompositeData s = (CompositeData) p.get("scrub");
            if (!(Boolean) s.get("reported")) {
                String why = (Boolean) p.get("reachable") ? "not reported (an older pod)" : "unreachable: " + p.get("error");
                t.row(p.get("vaultId"), p.get("shardIndex"), p.get("address"), "?", "?", why);
                continue;
            }
            long rate = (Long) s.get("bytesPerSecond");
            boolean inPass = (Boolean) s.get("inPass");
            String lastEnd = (String) s.get("lastEnd");
            boolean anyPass = !lastEnd.isEmpty();
            t.row(p.get("vaultId"), p.get("shardIndex"), p.get("address"),
                    rate == 0 ? "off" : Table.bytes(rate) + "/s", s.get("pass"),
                    inPass ? "scrubbing" : rate == 0 ? "off" : "idle",
                    inPass ? progress(s) : "",
                    inPass ? blankAs((String) s.get("position"), "(start)") : "",
                    anyPass ? lastEnd : "never",
                    anyPass ? Table.age((Long) s.get("lastDurationMillis")) : "",
                    anyPass ? Table.count((Long) s.get("lastFiles")) : "",
                    anyPass ? Table.bytes((Long) s.get("lastBytes")) : "",
                    anyPass ? Table.count((Long) s.get("lastCorrupt")) : "",
                    anyPass ? Table.count((Long) s.get("lastMissing")) : "",
                    s.get("heldFindings"));
        }
        out.print(t.render());
    }

    /** Files and bytes of the pass so far, and the share of the last pass's files that is, when there was one. */
    private static String progress(CompositeData s) {
        long files = (Long) s.get("passFiles");
        long lastFiles = (Long) s.get("lastFiles");
        String share = lastFiles > 0 ? String.format(" (~%d%%)", Math.min(99, files * 100 / lastFiles)) : "";
        return files + " files, " + Table.bytes((Long) s.get("passBytes")) + share;
    }

    private static String blankAs(String s, String blank) {
        return s.isEmpty() ? blank : s;
    }
}
