package io.shardvault.common.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A service's cluster TLS identity: its certificate chain and private key, and the cluster CA it
 * trusts, all PEM files ({@link TlsConfigKeys}). Only paths: the files are read where the TLS
 * contexts are built, and the key's content never reaches a log or a message.
 *
 * @param certificate PEM certificate chain, leaf first
 * @param key PEM PKCS#8 private key of the leaf
 * @param ca PEM certificate of the cluster CA, the only trust anchor
 */
public record TlsSettings(Path certificate, Path key, Path ca) {
    public TlsSettings {
        Objects.requireNonNull(certificate, "certificate");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(ca, "ca");
    }

    /**
     * The TLS identity the settings name, or empty when none of {@code tls.*} is set (plaintext).
     *
     * @throws ConfigException when only some of the three are set, or a file is not a readable file
     */
    public static Optional<TlsSettings> from(Settings settings) {
        List<String> set = new ArrayList<>();
        List<String> unset = new ArrayList<>();
        for (ConfigKey<?> k : TlsConfigKeys.all()) {
            (settings.isSet(k.name()) ? set : unset).add(k.name());
        }
        if (set.isEmpty()) {
            return Optional.empty();
        }
        if (!unset.isEmpty()) {
            throw new ConfigException("settings from " + settings.source() + " set " + set + " but not " + unset
                    + ": TLS needs all of " + TlsConfigKeys.all());
        }
        TlsSettings tls = new TlsSettings(settings.get(TlsConfigKeys.CERTIFICATE), settings.get(TlsConfigKeys.KEY),
                settings.get(TlsConfigKeys.CA));
        requireReadable(TlsConfigKeys.CERTIFICATE, tls.certificate);
        requireReadable(TlsConfigKeys.KEY, tls.key);
        requireReadable(TlsConfigKeys.CA, tls.ca);
        return Optional.of(tls);
    }

    private static void requireReadable(ConfigKey<Path> key, Path file) {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new ConfigException(key.name() + " = " + file + " is not a readable file");
        }
    }
}
