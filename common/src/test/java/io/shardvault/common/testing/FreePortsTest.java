package io.shardvault.common.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link FreePorts}: the fixed ports of tests' confs and peer lists. */
class FreePortsTest {
    private static final Path RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    @Test
    void portsAreNeverHandedOutTwiceAndLieBelowTheEphemeralRange() throws Exception {
        int low = FreePorts.ephemeralLow();
        if (Files.exists(RANGE)) {
            assertThat(low).as("the first port of %s", RANGE).isEqualTo(Integer.parseInt(
                    Files.readAllLines(RANGE).get(0).trim().split("\\s+")[0]));
        }
        Set<Integer> ports = new HashSet<>();
        for (int i = 0; i < 300; i++) {
            int port = FreePorts.loopback();
            assertThat(ports.add(port)).as("port %d handed out twice", port).isTrue();
            if (low - 10_000 >= 1000) {
                assertThat(port).as("below the ephemeral range").isBetween(10_000, low - 1);
            }
        }
    }
}
