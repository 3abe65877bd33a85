package io.shardvault.coordinator.admin.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code admin pod drain|down|up}: a pod's operator state, kept in the catalog; {@code admin pod rebuild|rebuild-status}:
 * the rebuild of a lost or replaced pod, {@code admin pod decommission}: the copy of a pod that still serves
 * onto its replacement, and {@code admin pod scrub-status}: every pod's scrubber (issue #20).
 */
@Command(name = "pod", mixinStandardHelpOptions = true,
        description = "Drains a pod, marks it down or up again (kept in the catalog; every coordinator honours it).")
final class PodCommand extends CommandGroup {

    @Command(name = "drain", mixinStandardHelpOptions = true,
            description = "No new shards go to the pod; its data stays readable.")
    int drain(@Parameters(paramLabel = "SHARD", description = "The pod's shard index.") int shard,
              @Option(names = "--vault", paramLabel = "ID", description = "The pod's vault (default: the only one).")
              Integer vault) throws AdminException {
        return set("drain", shard, vault);
    }

    @Command(name = "down", mixinStandardHelpOptions = true,
            description = "Marks the pod down: no new shards (they are recorded missing, for repair).")
    int down(@Parameters(paramLabel = "SHARD", description = "The pod's shard index.") int shard,
             @Option(names = "--vault", paramLabel = "ID", description = "The pod's vault (default: the only one).")
             Integer vault) throws AdminException {
        return set("markDown", shard, vault);
    }

    @Command(name = "up", mixinStandardHelpOptions = true, description = "Puts the pod back in service.")
    int up(@Parameters(paramLabel = "SHARD", description = "The pod's shard index.") int shard,
           @Option(names = "--vault", paramLabel = "ID", description = "The pod's vault (default: the only one).")
           Integer vault) throws AdminException {
        return set("markUp", shard, vault);
    }

    /** {@code io.shardvault:type=PodRebuild,name=podRebuild}. */
    static final ObjectName POD_REBUILD = io.shardvault.common.jmx.MBeanRegistrations.name("PodRebuild", "podRebuild");

    @Command(name = "rebuild", mixinStandardHelpOptions = true,
            description = "Recreates every shard of the pod from the others, onto the pod at its address now (a"
                    + " replacement, or the same one with empty tomes): throttled, resumable, writes go on.")
    int rebuild(@Parameters(paramLabel = "SHARD", description = "The pod's shard index.") int shard,
                @Option(names = "--vault", paramLabel = "ID", description = "The pod's vault (default: the only one).")
                Integer vault,
                @Option(names = "--check", description = "Only count the shards the pod lacks; write nothing.")
                boolean check) throws AdminException {
        return root.execute((session, out) -> {
            int v = vault != null ? vault : onlyVault(session);
            CompositeData job = (CompositeData) session.invoke(POD_REBUILD, "rebuild", new Object[] {v, shard, check},
                    new String[] {int.class.getName(), int.class.getName(), boolean.class.getName()});
            started(out, (check ? "check" : "rebuild") + " of pod " + shard + " in vault " + v, job);
        });
    }

    @Command(name = "decommission", mixinStandardHelpOptions = true,
            description = "Copies every shard of the pod onto its replacement at HOST:PORT while the pod still serves"
                    + " (decoding only what it cannot give): throttled, resumable. Its DONE switches every coordinator's"
                    + " vault map to the replacement (no restart); then run pod rebuild to catch up.")
    int decommission(@Parameters(paramLabel = "SHARD", description = "The pod's shard index.") int shard,
                     @Option(names = "--to", required = true, paramLabel = "HOST:PORT",
                             description = "The replacement pod's address (started, answering).") String to,
                     @Option(names = "--vault", paramLabel = "ID",
                             description = "The pod's vault (default: the only one).") Integer vault)
            throws AdminException {
        return root.execute((session, out) -> {
            int v = vault != null ? vault : onlyVault(session);
            CompositeData job = (CompositeData) session.invoke(POD_REBUILD, "decommission", new Object[] {v, shard, to},
                    new String[] {int.class.getName(), int.class.getName(), String.class.getName()});
            started(out, "decommission of pod " + shard + " in vault " + v + " onto " + to, job);
        });
    }

    /** Shows a job just started: its row as JSON, or a line saying how to follow it and the row. */
    private void started(PrintWriter out, String what, CompositeData job) {
        if (root.json) {
            out.println(Json.of(job));
            return;
        }
        out.println(what + " started (job " + job.get("jobId") + ", ~" + job.get("filesTotal")
                + " files); follow it with: shardvault admin pod rebuild-status");
        PodRebuildFormat.job(out, job);
    }

    @Command(name = "rebuild-status", mixinStandardHelpOptions = true,
            description = "Every pod rebuild (running and done): files, bytes, rate and ETA.")
    int rebuildStatus() throws AdminException {
        return root.execute((session, out) -> {
            CompositeData[] jobs = (CompositeData[]) session.get(POD_REBUILD, "Jobs");
            if (root.json) {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("rebuildingHere", session.get(POD_REBUILD, "RebuildingHere"));
                r.put("jobs", jobs);
                out.println(Json.object(r));
                return;
            }
            if (jobs.length == 0) {
                out.println("no pod rebuild has been started");
            }
            for (CompositeData j : jobs) {
                PodRebuildFormat.job(out, j);
            }
        });
    }

    @Command(name = "scrub-status", mixinStandardHelpOptions = true,
            description = "Every pod's scrubber: rate, the pass under way (progress, position) and the last complete"
                    + " pass (when it ended, how long it took, files and bytes checked, files found corrupt or with"
                    + " chunks missing), as the pods report them now.")
    int scrubStatus() throws AdminException {
        return root.execute((session, out) -> {
            CompositeData[] pods = (CompositeData[]) session.get(StatusCommand.CLUSTER, "Pods");
            if (root.json) {
                List<String> rows = new ArrayList<>();
                for (CompositeData p : pods) {
                    Map<String, Object> r = new LinkedHashMap<>();
                    for (String key : List.of("vaultId", "shardIndex", "address", "reachable", "error", "scrub")) {
                        r.put(key, p.get(key));
                    }
                    rows.add(Json.object(r));
                }
                out.println("[" + String.join(",", rows) + "]");
                return;
            }
            ScrubFormat.table(out, pods);
        });
    }

    private int set(String operation, int shard, Integer vault) throws AdminException {
        return root.execute((session, out) -> {
            int v = vault != null ? vault : onlyVault(session);
            ObjectName name = io.shardvault.common.jmx.MBeanRegistrations.name("Pod", "vault-" + v + ".pod-" + shard);
            if (session.query(name).isEmpty()) {
                throw new AdminException(ExitCodes.FAILED, "no pod " + shard + " in vault " + v);
            }
            String state = (String) session.invoke(name, operation, new Object[0], new String[0]);
            if (root.json) {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("vaultId", v);
                r.put("shardIndex", shard);
                r.put("state", state);
                out.println(Json.object(r));
            } else {
                out.println("pod " + shard + " of vault " + v + " is now " + state);
            }
        });
    }

    static int onlyVault(JmxSession session) throws AdminException {
        Set<ObjectName> vaults;
        try {
            vaults = session.query(new ObjectName(io.shardvault.common.jmx.MBeanRegistrations.DOMAIN + ":type=Vault,*"));
        } catch (javax.management.MalformedObjectNameException e) {
            throw new IllegalStateException(e);
        }
        if (vaults.size() != 1) {
            throw new AdminException(ExitCodes.USAGE, "the cluster has " + vaults.size() + " vaults: name one with --vault");
        }
        return (Integer) session.get(vaults.iterator().next(), "VaultId");
    }
}
