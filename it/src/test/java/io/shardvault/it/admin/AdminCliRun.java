package io.shardvault.it.admin;

import io.shardvault.coordinator.admin.cli.AdminCli;
import java.io.PrintWriter;
import java.io.StringWriter;

/** One run of the admin CLI in this JVM, as an operator's shell would see it: its exit code and what it printed. */
record AdminCliRun(int exit, String out, String err) {
    static AdminCliRun execute(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cli = AdminCli.newCommandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int exit = cli.execute(args);
        return new AdminCliRun(exit, out.toString(), err.toString());
    }
}
