package io.shardvault.common.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Ports free on loopback a moment ago, for servers that want fixed ones (the catalog's Ratis peer list, a conf
 * file, a JMX connector). Taken below the kernel's ephemeral range: a port the kernel hands out for port 0 lies
 * in that range, where any outgoing connection may take it before the server binds it (seen: a release test's pod
 * process failing "Address already in use" seconds after its port was picked). Never the same one twice in this
 * JVM, so the ports of one cluster are distinct (the kernel gives a port just closed out again: seen, a pod and a
 * stash server of one release test given the same port). Test JVMs that run side by side (surefire's forks)
 * take from disjoint blocks of that range, by their fork number ({@value #FORK_PROPERTY}), so two of them never
 * pick the same port in the moment before its server binds it.
 *
 * <p>Thread-safe.
 */
public final class FreePorts {
    private static final int LOW = 10_000;
    /** Set by the build to surefire's fork number (1, 2, ...); absent or not a number: block 0. */
    static final String FORK_PROPERTY = "shardvault.test.fork";
    private static final int FORK_BLOCKS = 4;
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final Random PICKS = new Random();
    private static final Set<Integer> HANDED_OUT = new HashSet<>();

    private FreePorts() {
    }

    /** One port; unchecked, for field initializers and lambdas: a test without its port cannot go on anyway. */
    public static synchronized int loopback() {
        int high = ephemeralLow();
        int block = (high - LOW) / FORK_BLOCKS;
        boolean belowEphemeral = block >= 1000;
        int low = LOW + forkBlock() * block;
        for (int attempt = 0; attempt < 1000; attempt++) {
            // Where the ephemeral range leaves too little room below it: the kernel's pick, still never one twice.
            int port = belowEphemeral ? low + PICKS.nextInt(block) : 0;
            try (ServerSocket socket = new ServerSocket()) {
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
                if (HANDED_OUT.add(socket.getLocalPort())) {
                    return socket.getLocalPort();
                }
            } catch (IOException taken) {
                // In use: try another.
            }
        }
        throw new IllegalStateException("no free loopback port not handed out before after 1000 tries (ephemeral range from "
                + high + ")");
    }

    private static int forkBlock() {
        try {
            return Math.floorMod(Integer.parseInt(System.getProperty(FORK_PROPERTY, "1")) - 1, FORK_BLOCKS);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** {@code n} distinct ports. */
    public static List<Integer> loopback(int n) {
        List<Integer> ports = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ports.add(loopback());
        }
        return ports;
    }

    /** The first port of the kernel's ephemeral range (net.ipv4.ip_local_port_range), 32768 where unknown. */
    static int ephemeralLow() {
        try {
            // Read in one go: a sysctl file answers nothing at a non-zero offset, and Files.readString of a file
            // whose size says 0 reads its first byte alone, then from offset 1 (it took "3" for 32768).
            return Integer.parseInt(Files.readAllLines(EPHEMERAL_RANGE).get(0).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 32768;
        }
    }
}
