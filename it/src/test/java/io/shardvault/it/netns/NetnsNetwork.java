package io.shardvault.it.netns;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A test network of Linux network namespaces: one "switch" namespace holding a bridge, and one namespace per
 * host joined to it by a veth pair, with one address on the host's end (and loopback, for what a host serves to
 * itself only, such as a coordinator's JMX). Nothing is added to the root namespace, unless {@link #joinRoot}
 * asks for it: then the root namespace (the test's JVM) is a host too, by a veth of its own. Cutting a host off
 * is its switch port going down, as a pulled cable.
 *
 * <p>Every name starts with the family's prefix and this run's id; {@link #create} first removes what an earlier
 * run of the family left (a killed test JVM, say), and {@link #close} (also a JVM shutdown hook) removes this
 * run's namespaces, killing any process still inside them; the root namespace's veth goes with the switch's.
 * Families keep the tests that use namespaces from removing each other's. Needs root and iproute2. Not
 * thread-safe but for close.
 */
public final class NetnsNetwork implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NetnsNetwork.class);
    private static final String BRIDGE = "br0";
    private static final String PREFIX_LENGTH = "/24";
    private static final long COMMAND_SECONDS = 30;

    private final String prefix;
    private final String runId;
    private final String switchNs;
    private final Map<String, String> addresses = new LinkedHashMap<>();
    /** The host {@link #joinRoot} made, or null. */
    private String rootHost;
    private final Thread shutdownHook = new Thread(this::close, "netns-cleanup");
    private boolean closed;

    private NetnsNetwork(String prefix, String runId) {
        this.prefix = prefix;
        this.runId = runId;
        this.switchNs = prefix + "switch";
    }

    /**
     * Removes the leftovers of {@code family} (a prefix of namespace names, such as {@code svnetns-}), then makes
     * the switch: the bridge in a namespace of its own.
     *
     * @throws IOException when {@code ip netns} does not work here (not root, no iproute2)
     */
    public static NetnsNetwork create(String family) throws IOException, InterruptedException {
        removeLeftovers(family);
        String runId = Integer.toHexString(ThreadLocalRandom.current().nextInt(0x100000, 0xffffff));
        NetnsNetwork network = new NetnsNetwork(family + runId + "-", runId);
        Runtime.getRuntime().addShutdownHook(network.shutdownHook);
        try {
            network.ip("netns", "add", network.switchNs);
            network.ip("-n", network.switchNs, "link", "add", "dev", BRIDGE, "type", "bridge");
            network.ip("-n", network.switchNs, "link", "set", "dev", BRIDGE, "up");
        } catch (IOException | RuntimeException e) {
            network.close();
            throw e;
        }
        return network;
    }

    /** Adds host {@code host} (at most 15 characters) with {@code address}, its one address, reachable from every other. */
    public void addHost(String host, String address) throws IOException, InterruptedException {
        String ns = namespace(host);
        addresses.put(host, address);
        ip("netns", "add", ns);
        ip("-n", ns, "link", "set", "dev", "lo", "up");
        // Made inside the two namespaces at once: the pair never appears in the root namespace.
        ip("link", "add", "dev", "eth0", "netns", ns, "type", "veth", "peer", "name", host, "netns", switchNs);
        ip("-n", ns, "addr", "add", address + PREFIX_LENGTH, "dev", "eth0");
        ip("-n", ns, "link", "set", "dev", "eth0", "up");
        ip("-n", switchNs, "link", "set", "dev", host, "master", BRIDGE);
        ip("-n", switchNs, "link", "set", "dev", host, "up");
    }

    /**
     * Makes the root namespace host {@code host} (at most 15 characters) with {@code address}: a veth named after
     * this run ({@code sv<run id>}) with that address, its peer on the switch, so that the test's own JVM reaches
     * every host and {@link #linkDown} of another cuts it off from the test too.
     */
    public void joinRoot(String host, String address) throws IOException, InterruptedException {
        String veth = "sv" + runId;
        addresses.put(host, address);
        rootHost = host;
        ip("link", "add", "dev", veth, "type", "veth", "peer", "name", host, "netns", switchNs);
        ip("addr", "add", address + PREFIX_LENGTH, "dev", veth);
        ip("link", "set", "dev", veth, "up");
        ip("-n", switchNs, "link", "set", "dev", host, "master", BRIDGE);
        ip("-n", switchNs, "link", "set", "dev", host, "up");
    }

    /** The namespace of {@code host}, for {@code ip netns exec}. */
    private String namespace(String host) {
        return prefix + host;
    }

    /** What runs {@code command} on {@code host}: {@code ip netns exec} its namespace, then the command. */
    public List<String> onHost(String host, List<String> command) {
        List<String> all = new ArrayList<>(List.of("ip", "netns", "exec", namespace(host)));
        all.addAll(command);
        return all;
    }

    public String address(String host) {
        String address = addresses.get(host);
        if (address == null) {
            throw new IllegalArgumentException("no host " + host);
        }
        return address;
    }

    /** Cuts {@code host} off from every other: its switch port down. */
    public void linkDown(String host) throws IOException, InterruptedException {
        ip("-n", switchNs, "link", "set", "dev", host, "down");
        LOG.info("{} ({}) cut off", host, address(host));
    }

    public void linkUp(String host) throws IOException, InterruptedException {
        ip("-n", switchNs, "link", "set", "dev", host, "up");
        LOG.info("{} ({}) back", host, address(host));
    }

    /** Removes this run's namespaces (hosts first, then the switch), killing what still runs in them. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<String> all = new ArrayList<>();
        // The root namespace's host has no namespace: its veth goes with the switch's end.
        addresses.keySet().stream().filter(h -> !h.equals(rootHost)).forEach(h -> all.add(namespace(h)));
        all.add(switchNs);
        for (String ns : all) {
            removeNamespace(ns);
        }
        if (Thread.currentThread() != shutdownHook) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException shuttingDown) {
                // The hook runs or has run: nothing left to remove.
            }
        }
    }

    private static void removeLeftovers(String family) throws IOException, InterruptedException {
        for (String line : run(List.of("ip", "netns", "list")).split("\n")) {
            String ns = line.split(" ")[0];
            if (ns.startsWith(family)) {
                LOG.warn("removing namespace {}, left by an earlier run", ns);
                removeNamespace(ns);
            }
        }
    }

    /** Kills what runs in {@code ns} (this test's own services of a run that did not stop them), then deletes it. */
    private static void removeNamespace(String ns) {
        try {
            for (String pid : run(List.of("ip", "netns", "pids", ns)).split("\\s+")) {
                if (!pid.isEmpty()) {
                    ProcessHandle.of(Long.parseLong(pid)).ifPresent(p -> {
                        LOG.warn("killing pid {} still in {}", pid, ns);
                        p.destroyForcibly();
                    });
                }
            }
            run(List.of("ip", "netns", "delete", ns));
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not remove namespace {}: {}", ns, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void ip(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        run(command);
    }

    /** Runs {@code command} to its end (at most {@link #COMMAND_SECONDS}); returns its output, failing on a non-zero exit. */
    static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!p.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " still running after " + COMMAND_SECONDS + " s");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " exited " + p.exitValue() + ": " + out.trim());
        }
        return out;
    }
}
