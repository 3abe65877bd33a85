package io.shardvault.coordinator.admin.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/**
 * {@code admin status}: the verdict ({@link ClusterVerdict}), then the catalog, vaults, pods, their
 * failed tomes and the stash servers in one screen.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Shows the cluster's verdict (HEALTHY, DEGRADED or UNAVAILABLE, with why), the catalog, the"
                + " vaults, every pod, failed tomes and the stash servers.")
final class StatusCommand implements Callable<Integer> {
    static final ObjectName CLUSTER = io.shardvault.common.jmx.MBeanRegistrations.name("Cluster", "cluster");

    @ParentCommand
    private AdminCli root;

    @Override
    public Integer call() throws AdminException {
        return root.execute((session, out) -> {
            Object catalog = session.get(CLUSTER, "Catalog");
            Object vaults = session.get(CLUSTER, "Vaults");
            Object pods = session.get(CLUSTER, "Pods");
            Object stash = session.get(CLUSTER, "StashServers");
            ClusterVerdict verdict = ClusterVerdict.of((CompositeData) catalog, (CompositeData[]) vaults,
                    (CompositeData[]) pods, (CompositeData[]) stash);
            if (root.json) {
                Map<String, Object> all = new LinkedHashMap<>();
                all.put("verdict", verdict.state());
                all.put("reasons", verdict.reasons().toArray(String[]::new));
                all.put("catalog", catalog);
                all.put("vaults", vaults);
                all.put("pods", pods);
                all.put("stashServers", stash);
                out.println(Json.object(all));
                return;
            }
            printVerdict(out, verdict);
            out.println();
            printCatalog(out, (CompositeData) catalog);
            out.println();
            printVaults(out, (CompositeData[]) vaults);
            out.println();
            printPods(out, (CompositeData[]) pods);
            out.println();
            printFailedTomes(out, (CompositeData[]) pods);
            out.println();
            printStashServers(out, (CompositeData[]) stash);
        });
    }

    static void printVerdict(PrintWriter out, ClusterVerdict verdict) {
        out.println("CLUSTER " + verdict.state());
        for (String reason : verdict.reasons()) {
            out.println("  - " + reason);
        }
    }

    static void printCatalog(PrintWriter out, CompositeData c) {
        out.println("CATALOG");
        String leader = (String) c.get("leaderId");
        out.print(new Table("PEER", "ROLE", "LEADER", "TERM", "APPLIED", "PEERS")
                .row(c.get("peerId"), c.get("role"), leader.isEmpty() ? "(none)" : leader, c.get("term"),
                        c.get("appliedIndex"), String.join(",", (String[]) c.get("peers"))).render());
    }

    static void printVaults(PrintWriter out, CompositeData[] vaults) {
        out.println("VAULTS");
        Table t = new Table("VAULT", "LAYOUT", "PODS", "UP", "DRAINING", "DOWN", "UNREACHABLE", "QUORUM", "WRITABLE");
        for (CompositeData v : vaults) {
            t.row(v.get("vaultId"), v.get("layout"), v.get("pods"), v.get("podsUp"), v.get("podsDraining"),
                    v.get("podsDown"), v.get("podsUnreachable"), v.get("writeQuorum"),
                    (Boolean) v.get("writable") ? "yes" : "NO");
        }
        out.print(t.render());
    }

    static void printPods(PrintWriter out, CompositeData[] pods) {
        out.println("PODS");
        Table t = new Table("VAULT", "SHARD", "ADDRESS", "STATE", "REACHABLE", "UNFLUSHED", "PURGE QUEUE",
                "OLDEST PURGE", "FREE");
        for (CompositeData p : pods) {
            boolean reachable = (Boolean) p.get("reachable");
            t.row(p.get("vaultId"), p.get("shardIndex"), p.get("address"), p.get("state"),
                    reachable ? "yes" : "NO: " + p.get("error"), Table.bytes((Long) p.get("unflushedBytes")),
                    Table.count((Long) p.get("purgeQueueDepth")), Table.age((Long) p.get("oldestPurgeAgeMillis")),
                    Table.bytes((Long) p.get("usableBytes")));
        }
        out.print(t.render());
    }

    /** Every failed tome of every pod that answered (docs/OPERATIONS.md, "A failed tome"). */
    static void printFailedTomes(PrintWriter out, CompositeData[] pods) {
        out.println("FAILED TOMES");
        Table t = new Table("VAULT", "SHARD", "ADDRESS", "TOME", "PATH", "SINCE", "RECORDED", "WHY");
        int failed = 0;
        for (CompositeData p : pods) {
            for (CompositeData f : (CompositeData[]) p.get("failedTomes")) {
                String since = (String) f.get("failedAt");
                t.row(p.get("vaultId"), p.get("shardIndex"), p.get("address"), f.get("tome"), f.get("directory"),
                        since.isEmpty() ? "unknown" : since, (Boolean) f.get("recorded") ? "yes" : "NO",
                        f.get("reason"));
                failed++;
            }
        }
        if (failed == 0) {
            out.println("(none)");
            return;
        }
        out.print(t.render());
    }

    static void printStashServers(PrintWriter out, CompositeData[] servers) {
        out.println("STASH SERVERS");
        if (servers.length == 0) {
            out.println("(none: every write is durable)");
            return;
        }
        Table t = new Table("ID", "ADDRESS", "REACHABLE", "ENTRIES", "BYTES", "CAPACITY", "OLDEST ENTRY");
        for (CompositeData s : servers) {
            boolean reachable = (Boolean) s.get("reachable");
            t.row(s.get("stashId"), s.get("address"), reachable ? "yes" : "NO: " + s.get("error"),
                    Table.count((Long) s.get("entries")), Table.bytes((Long) s.get("bytes")),
                    Table.bytes((Long) s.get("capacityBytes")), Table.age((Long) s.get("oldestEntryAgeMillis")));
        }
        out.print(t.render());
    }
}
