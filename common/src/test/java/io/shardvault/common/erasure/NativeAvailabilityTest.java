package io.shardvault.common.erasure;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.common.erasure.internal.Jerasure4jLoader;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The guard against a silently skipped native codec: with {@code SHARDVAULT_REQUIRE_NATIVE=true} (CI) this
 * fails, naming the cause, when the library was not built into the jar or did not load.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class NativeAvailabilityTest {

    @Test
    void nativeCodecLoadsWhenRequired() {
        boolean packaged = getClass().getClassLoader().getResource(Jerasure4jLoader.resourcePath()) != null;
        if (NativeSupport.REQUIRED) {
            assertThat(packaged).as("%s on the classpath (built by common/src/main/native/build.sh)",
                    Jerasure4jLoader.resourcePath()).isTrue();
            assertThat(Jerasure.isAvailable()).as("native codec loaded; cause: %s", Jerasure.unavailabilityCause())
                    .isTrue();
        }
        NativeSupport.assumeNative();
        Jerasure.ensureAvailability();
    }
}
