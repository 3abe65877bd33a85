package io.shardvault.coordinator.admin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** A command group named alone is a usage error listing its commands, all of them; so is init without a readable map file (no JMX needed). */
class CommandGroupTest {
    @Test
    void aGroupAloneListsEveryCommandItHas() {
        assertThat(usage("pod")).contains("name one of the pod commands: ").contains("drain", "down", "up",
                "rebuild", "rebuild-status", "decommission", "scrub-status");
        assertThat(usage("keys")).contains("name one of the keys commands: ").contains("create", "list", "disable",
                "rotate-encryption");
        assertThat(usage("accounts")).contains("name one of the accounts commands: ").contains("create", "list");
        assertThat(usage()).contains("name a command: ").contains("status", "accounts", "keys", "pod", "stash",
                "repair", "collect", "init");
        // init reads its file before it connects: a missing one is a usage error, not an unreachable cluster.
        assertThat(usage("init")).contains("--map");
        assertThat(usage("init", "--map", "/nonexistent/cluster-map.conf", "--jmx", "127.0.0.1:1"))
                .contains("cannot read --map /nonexistent/cluster-map.conf");
    }

    private static String usage(String... args) {
        StringWriter err = new StringWriter();
        var cli = AdminCli.newCommandLine();
        cli.setOut(new PrintWriter(new StringWriter()));
        cli.setErr(new PrintWriter(err));
        assertThat(cli.execute(args)).isEqualTo(ExitCodes.USAGE);
        return err.toString();
    }
}
