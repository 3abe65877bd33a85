package io.shardvault.common.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class HostPortTest {
    @Test
    void parsesHostPortV6AndWildcard() {
        assertThat(HostPort.parse("127.0.0.1:7400")).isEqualTo(new InetSocketAddress("127.0.0.1", 7400));
        assertThat(HostPort.parse(" 127.0.0.1:7400 ")).isEqualTo(new InetSocketAddress("127.0.0.1", 7400));
        assertThat(HostPort.parse(":0").getPort()).isZero();
        assertThat(HostPort.parse(":0").getAddress().isAnyLocalAddress()).isTrue();
        assertThat(HostPort.parse("[::1]:9").getPort()).isEqualTo(9);
    }

    @Test
    void rejectsWhatIsNotHostPortNamingTheValue() {
        assertThatThrownBy(() -> HostPort.parse("localhost")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("localhost");
        assertThatThrownBy(() -> HostPort.parse("h:x")).hasMessageContaining("h:x");
        assertThatThrownBy(() -> HostPort.parse("h:70000")).hasMessageContaining("out of range");
    }

    @Test
    void parsesListsWithNoneAsEmpty() {
        assertThat(HostPort.parseList("none")).isEmpty();
        assertThat(HostPort.parseList(" ")).isEmpty();
        assertThat(HostPort.parseList("127.0.0.1:1, 127.0.0.1:2")).isEqualTo(List.of(
                new InetSocketAddress("127.0.0.1", 1), new InetSocketAddress("127.0.0.1", 2)));
    }
}
