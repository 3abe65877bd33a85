package io.shardvault.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ErrorCodeTest {
    @Test
    void wireCodesAreUniqueAndRoundTrip() {
        Set<Integer> seen = new HashSet<>();
        for (ErrorCode code : ErrorCode.values()) {
            assertThat(seen.add(code.wire())).as("duplicate wire code %s", code).isTrue();
            assertThat(ErrorCode.fromWire(code.wire())).isEqualTo(code);
        }
    }

    @Test
    void wireCodesNeverChange() {
        // These values are on the wire between versions: renumbering one breaks mixed clusters.
        assertThat(ErrorCode.TIMEOUT.wire()).isEqualTo(2);
        assertThat(ErrorCode.CORRUPT.wire()).isEqualTo(10);
        assertThat(ErrorCode.STASH_FULL.wire()).isEqualTo(12);
    }

    @Test
    void unknownWireCodesMapToUnknown() {
        assertThat(ErrorCode.fromWire(63)).isEqualTo(ErrorCode.UNKNOWN);
        assertThat(ErrorCode.fromWire(5000)).isEqualTo(ErrorCode.UNKNOWN);
        assertThat(ErrorCode.fromWire(-1)).isEqualTo(ErrorCode.UNKNOWN);
    }
}
