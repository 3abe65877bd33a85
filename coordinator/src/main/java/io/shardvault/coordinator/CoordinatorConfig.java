package io.shardvault.coordinator;

import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.HostPort;
import io.shardvault.common.config.Settings;
import io.shardvault.common.erasure.ErasureLayout;
import io.shardvault.coordinator.catalog.Account;
import io.shardvault.coordinator.data.Vault;
import io.shardvault.coordinator.data.VaultLayout;
import io.shardvault.s3.Credential;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The resolved settings of {@link CoordinatorConfigKeys}.
 *
 * @param vault        the vault new files go to, with its pods
 * @param stashServers the stash servers, in cluster-map order (empty: no stash)
 * @param reaperInterval how often released files' shards are deleted
 * @param fileIdBatch  file ids per catalog allocation
 * @param bootstrapKey an access key (of the built-in account {@link Account#BOOTSTRAP_ID}) accepted besides the
 *     catalog's, if set
 * @param startupTimeout how long start-up waits for the catalog
 */
public record CoordinatorConfig(Vault vault, List<InetSocketAddress> stashServers, Duration reaperInterval,
                                int fileIdBatch, Optional<Credential> bootstrapKey, Duration startupTimeout) {

    public CoordinatorConfig {
        Objects.requireNonNull(vault, "vault");
        stashServers = List.copyOf(stashServers);
        Objects.requireNonNull(bootstrapKey, "bootstrapKey");
    }

    public static CoordinatorConfig from(Settings s) {
        try {
            ErasureLayout erasure = ErasureLayout.parse(s.get(CoordinatorConfigKeys.VAULT_LAYOUT));
            long chunk = s.get(CoordinatorConfigKeys.VAULT_CHUNK_BYTES);
            VaultLayout layout = new VaultLayout(erasure, Math.toIntExact(chunk));
            List<InetSocketAddress> pods = HostPort.parseList(s.get(CoordinatorConfigKeys.VAULT_PODS));
            Vault vault = new Vault(s.get(CoordinatorConfigKeys.VAULT_ID), layout, pods);
            String access = noneAsEmpty(s.get(CoordinatorConfigKeys.ACCESS_KEY));
            String secret = noneAsEmpty(s.get(CoordinatorConfigKeys.SECRET_KEY));
            if (access.isEmpty() != secret.isEmpty()) {
                throw new IllegalArgumentException(CoordinatorConfigKeys.ACCESS_KEY.name() + " and "
                        + CoordinatorConfigKeys.SECRET_KEY.name() + " go together");
            }
            return new CoordinatorConfig(vault, HostPort.parseList(s.get(CoordinatorConfigKeys.STASH_SERVERS)),
                    s.get(CoordinatorConfigKeys.REAPER_INTERVAL), s.get(CoordinatorConfigKeys.FILE_ID_BATCH),
                    access.isEmpty() ? Optional.empty() : Optional.of(new Credential(access, secret, true, Account.BOOTSTRAP_ID)),
                    s.get(CoordinatorConfigKeys.STARTUP_TIMEOUT));
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new ConfigException("coordinator settings from " + s.source() + ": " + e.getMessage(), e);
        }
    }

    private static String noneAsEmpty(String value) {
        return value.trim().equalsIgnoreCase("none") ? "" : value.trim();
    }

}
