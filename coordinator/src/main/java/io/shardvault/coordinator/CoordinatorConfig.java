package io.shardvault.coordinator;

import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.ConfigKey;
import io.shardvault.common.config.Settings;
import io.shardvault.coordinator.catalog.Account;
import io.shardvault.s3.Credential;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The resolved settings of {@link CoordinatorConfigKeys}.
 *
 * @param vaultId      the vault new files go to
 * @param map          the cluster map the settings hold, registered in the catalog at start (and refused there if
 *     it disagrees); empty: the coordinator takes the catalog's, registered by {@code shardvault init --map}
 * @param reaperInterval how often released files' shards are deleted
 * @param reaperGrace  how long a released file's shards stay after the reaper first sees it queued
 * @param fileIdBatch  file ids per catalog allocation
 * @param bootstrapKey an access key (of the built-in account {@link Account#BOOTSTRAP_ID}) accepted besides the
 *     catalog's, if set
 * @param startupTimeout how long start-up waits for the catalog, and for its cluster map
 */
public record CoordinatorConfig(int vaultId, Optional<ClusterMapConfig> map, Duration reaperInterval,
                                Duration reaperGrace, int fileIdBatch, Optional<Credential> bootstrapKey, Duration startupTimeout) {

    public CoordinatorConfig {
        Objects.requireNonNull(map, "map");
        Objects.requireNonNull(bootstrapKey, "bootstrapKey");
    }

    public static CoordinatorConfig from(Settings s) {
        try {
            Optional<ClusterMapConfig> map = ClusterMapConfig.isIn(s) ? Optional.of(ClusterMapConfig.from(s))
                    : Optional.empty();
            if (map.isEmpty()) {
                List<String> stray = ClusterMapConfig.mapOnlyKeys().stream().map(ConfigKey::name)
                        .filter(s::isSet).toList();
                if (!stray.isEmpty()) {
                    throw new IllegalArgumentException(String.join(", ", stray) + " set without "
                            + CoordinatorConfigKeys.VAULT_PODS.name() + ": the cluster map is either all in the"
                            + " settings or all in the catalog (shardvault init --map)");
                }
            }
            String access = noneAsEmpty(s.get(CoordinatorConfigKeys.ACCESS_KEY));
            String secret = noneAsEmpty(s.get(CoordinatorConfigKeys.SECRET_KEY));
            if (access.isEmpty() != secret.isEmpty()) {
                throw new IllegalArgumentException(CoordinatorConfigKeys.ACCESS_KEY.name() + " and "
                        + CoordinatorConfigKeys.SECRET_KEY.name() + " go together");
            }
            return new CoordinatorConfig(s.get(CoordinatorConfigKeys.VAULT_ID), map,
                    s.get(CoordinatorConfigKeys.REAPER_INTERVAL), s.get(CoordinatorConfigKeys.REAPER_GRACE),
                    s.get(CoordinatorConfigKeys.FILE_ID_BATCH),
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
