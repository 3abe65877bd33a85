package io.shardvault.coordinator.admin;

import io.shardvault.common.config.ConfigKey;
import io.shardvault.common.jmx.JmxRemoteConfigKeys;
import java.time.Duration;
import java.util.List;

/** The coordinator's admin settings: how often pod states are re-read, and remote JMX ({@code jmx.remote.*}). */
public final class CoordinatorAdminConfigKeys {
    private CoordinatorAdminConfigKeys() {
    }

    public static final ConfigKey<Duration> POD_STATES_REFRESH = ConfigKey.ofDuration(
            "coordinator.podStates.refresh", Duration.ofSeconds(2), Duration.ofMillis(100), Duration.ofMinutes(10),
            "How often the pods' operator states (drained, down) are re-read from the catalog: how long another"
                    + " coordinator's change takes to reach this one's writes.");

    /** Every key above (the remote JMX keys are {@link JmxRemoteConfigKeys#all()}). */
    public static List<ConfigKey<?>> all() {
        return List.of(POD_STATES_REFRESH);
    }
}
