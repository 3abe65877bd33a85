package io.shardvault.coordinator.certs;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.common.config.TlsSettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import picocli.CommandLine;

/** Certificates made by the {@code shardvault certs} command, in a test's directory. */
public final class CertsFixture {
    private CertsFixture() {
    }

    /** Runs {@code shardvault certs ARGS...}, returning its exit code; its output goes to the test log. */
    public static int certs(String... args) {
        CommandLine cli = CertsCli.newCommandLine();
        StringWriter out = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(out, true));
        int code = cli.execute(args);
        System.out.print(out);
        return code;
    }

    /** Creates a CA in {@code dir} (kept when there) and issues {@code name} for {@code sans}. */
    public static TlsSettings issue(Path dir, String name, String sans) {
        assertThat(certs("ca", "--dir", dir.toString())).isZero();
        assertThat(certs("issue", name, "--dir", dir.toString(), "--san", sans)).isZero();
        return new TlsSettings(dir.resolve(name + ".crt"), dir.resolve(name + ".key"), dir.resolve("ca.crt"));
    }
}
