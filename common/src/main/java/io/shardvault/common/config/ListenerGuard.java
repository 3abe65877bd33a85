package io.shardvault.common.config;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps every listener without TLS on loopback (issue #21). A service checks each of its listeners here
 * as it resolves its settings: an address other than loopback (the wildcard {@code 0.0.0.0} included)
 * without TLS stops the start with a message naming the key that set it, unless {@code security.insecure
 * = true} says the operator accepts an unprotected port, and then every start says so at WARN. A port
 * anyone on the network can reach should be chosen, never a default.
 *
 * <p>Immutable and thread-safe.
 */
public final class ListenerGuard {
    private static final Logger LOG = LoggerFactory.getLogger(ListenerGuard.class);

    public static final ConfigKey<Boolean> INSECURE = ConfigKey.ofBoolean("security.insecure", false,
            "Accept listeners without TLS on addresses other than loopback; each is logged at WARN at every start. "
                    + "Off: such a listener stops the start, naming the key that set it.");

    private final boolean insecure;

    private ListenerGuard(boolean insecure) {
        this.insecure = insecure;
    }

    public static ListenerGuard from(Settings settings) {
        return new ListenerGuard(settings.get(INSECURE));
    }

    /** Every key above, for {@link Settings#rejectUnknown}. */
    public static List<ConfigKey<?>> keys() {
        return List.of(INSECURE);
    }

    /**
     * Lets {@code address} listen, or refuses it.
     *
     * @param key what set the address, as the operator would look for it (a setting or an option)
     * @param tls whether the listener serves TLS only
     * @throws ConfigException when the address is not loopback, {@code tls} is false and insecure
     *         listeners were not accepted
     */
    public void admit(String key, InetSocketAddress address, boolean tls) {
        admit(key, address, tls, "TLS");
    }

    /**
     * Lets {@code address} listen, or refuses it, for a listener whose protection is more than TLS
     * (the admin port needs TLS and a bearer token).
     *
     * @param isProtected whether the listener has all of {@code protection}
     * @param protection what the listener needs beyond loopback, naming its keys, for the messages
     * @throws ConfigException when the address is not loopback, the listener is not protected and
     *         insecure listeners were not accepted
     */
    public void admit(String key, InetSocketAddress address, boolean isProtected, String protection) {
        if (isProtected || isLoopback(address)) {
            return;
        }
        String where = address.getHostString() + ":" + address.getPort();
        if (!insecure) {
            throw new ConfigException(key + " = " + where + " listens beyond loopback without " + protection
                    + ", where anyone who reaches it can use it: bind it to 127.0.0.1, serve it with " + protection
                    + ", or set " + INSECURE.name() + " = true to accept an unprotected port");
        }
        LOG.warn("{} = {} listens beyond loopback without {} ({} = true): anyone who reaches it can use it",
                key, where, protection, INSECURE.name());
    }

    private static boolean isLoopback(InetSocketAddress address) {
        InetAddress ip = address.getAddress();
        // An unresolved name is judged by nothing: treat it as reachable.
        return ip != null && ip.isLoopbackAddress();
    }
}
