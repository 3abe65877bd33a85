package io.shardvault.common.erasure.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.common.erasure.NativeSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Loading the shim leaves no galois field to be set up lazily: galois does that without a lock, and
 * two threads making the first coding calls of a process could jump through a half-built field (a
 * SIGSEGV at pc 0 in jerasure_matrix_dotprod killed a test JVM). Runs in a JVM of its own
 * (surefire forks per class), so no earlier encode has set a field up by chance.
 */
@Timeout(30)
class Jerasure4jInitTest {
    @Test
    void everyFieldTheCodingCallsUseIsReadyBeforeTheFirstCall() {
        NativeSupport.assumeNative();
        assertThat(Jerasure4j.lazyFields()).as("galois fields left to lazy, racy initialisation").isZero();
    }
}
