package io.shardvault.common.erasure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ErasureLayoutTest {

    @Test
    void acceptsEveryLayoutOverGf256AndNothingElse() {
        assertThat(new ErasureLayout(1, 255).n()).isEqualTo(256);
        assertThat(new ErasureLayout(255, 1).n()).isEqualTo(256);
        assertThat(ErasureLayout.parse(" 16 + 4 ")).isEqualTo(new ErasureLayout(16, 4));
        assertThat(new ErasureLayout(17, 3)).hasToString("17+3");
        assertThatThrownBy(() -> new ErasureLayout(0, 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ErasureLayout(4, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ErasureLayout(200, 57)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("k=200, m=57");
        assertThatThrownBy(() -> ErasureLayout.parse("16x4")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ErasureLayout.parse("a+4")).isInstanceOf(IllegalArgumentException.class);
    }
}
