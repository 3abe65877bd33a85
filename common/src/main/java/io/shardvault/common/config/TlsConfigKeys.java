package io.shardvault.common.config;

import java.nio.file.Path;
import java.util.List;

/**
 * The cluster TLS identity of a service (issue #21): one set of keys in every service's conf, read by
 * {@link TlsSettings#from}. All three set: every internal hop (the RPC between coordinators, pods and
 * stash servers, and the catalog's Raft traffic) speaks mutual TLS with the cluster CA as the only
 * trust anchor. None set: plaintext, as before. The defaults below are never used: a key counts only
 * when set.
 */
public final class TlsConfigKeys {
    private TlsConfigKeys() {
    }

    public static final ConfigKey<Path> CERTIFICATE = ConfigKey.ofPath("tls.certificate", Path.of("tls", "service.crt"),
            "PEM certificate chain of this service, issued by the cluster CA (shardvault certs issue); "
                    + "unset with tls.key and tls.ca: the internal hops run in plaintext.");
    public static final ConfigKey<Path> KEY = ConfigKey.ofPath("tls.key", Path.of("tls", "service.key"),
            "PEM PKCS#8 private key of tls.certificate, readable only by the service's user.");
    public static final ConfigKey<Path> CA = ConfigKey.ofPath("tls.ca", Path.of("tls", "ca.crt"),
            "PEM certificate of the cluster CA: the only trust anchor for peers, which must present a certificate "
                    + "it issued.");

    /** Every key above, for {@link Settings#rejectUnknown}. */
    public static List<ConfigKey<?>> all() {
        return List.of(CERTIFICATE, KEY, CA);
    }
}
