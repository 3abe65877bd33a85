package io.shardvault.coordinator.admin.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import javax.management.ObjectName;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code admin pod drain|down|up}: a pod's operator state, kept in the catalog. */
@Command(name = "pod", mixinStandardHelpOptions = true,
        description = "Drains a pod, marks it down or up again (kept in the catalog; every coordinator honours it).")
final class PodCommand implements Runnable {
    @ParentCommand
    private AdminCli root;

    @picocli.CommandLine.Spec
    private picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "name a pod command: drain, down or up");
    }

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
