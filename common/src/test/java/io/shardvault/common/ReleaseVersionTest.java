package io.shardvault.common;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReleaseVersionTest {

    @Test
    void theVersionIsTheMavenProjectVersionFilledInAtBuildTime() {
        // Unfiltered, the resource would still say ${project.version}.
        assertThat(ReleaseVersion.current()).isEqualTo(System.getProperty("shardvault.version"))
                .matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
        assertThat(new ReleaseVersion().getVersion()).containsExactly("shardvault " + ReleaseVersion.current());
    }
}
