package io.shardvault.coordinator.catalog.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.common.config.Settings;
import io.shardvault.coordinator.catalog.CatalogConfig;
import java.util.Map;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class RatisCatalogServerPropertiesTest {
    @Test
    void leaderLeaseIsOnByDefaultAndCanBeTurnedOff() {
        RaftProperties on = RatisCatalogServer.properties(CatalogConfig.from(Settings.of(Map.of(
                "security.insecure", "true"))));
        assertThat(RaftServerConfigKeys.Read.leaderLeaseEnabled(on)).isTrue();
        assertThat(RaftServerConfigKeys.Read.leaderLeaseTimeoutRatio(on)).isEqualTo(RatisCatalogServer.LEASE_RATIO);

        RaftProperties off = RatisCatalogServer.properties(CatalogConfig.from(Settings.of(Map.of(
                "catalog.read.leaderLease", "false", "security.insecure", "true"))));
        assertThat(RaftServerConfigKeys.Read.leaderLeaseEnabled(off)).isFalse();
        assertThat(RaftServerConfigKeys.Read.option(off)).isEqualTo(RaftServerConfigKeys.Read.Option.LINEARIZABLE);
    }
}
