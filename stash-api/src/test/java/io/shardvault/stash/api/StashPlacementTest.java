package io.shardvault.stash.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class StashPlacementTest {

    private static List<InetSocketAddress> servers(int n) {
        List<InetSocketAddress> servers = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            servers.add(InetSocketAddress.createUnresolved("stash" + i + ".example", 7400));
        }
        return servers;
    }

    /**
     * Golden values: every process and JVM, today and after any refactoring, must agree. These
     * were cross-checked with an independent implementation of the documented formula.
     */
    @Test
    void placementIsStableAcrossProcesses() {
        StashPlacement placement = new StashPlacement(servers(5));
        assertThat(placement.serverFor(0, 0).getHostString()).isEqualTo("stash4.example");
        assertThat(placement.serverFor(0, 1).getHostString()).isEqualTo("stash2.example");
        assertThat(placement.serverFor(1, 0).getHostString()).isEqualTo("stash5.example");
        assertThat(placement.serverFor(7, 3).getHostString()).isEqualTo("stash5.example");
        assertThat(placement.serverFor(42, 19).getHostString()).isEqualTo("stash5.example");
        assertThat(placement.serverFor(1000, 255).getHostString()).isEqualTo("stash2.example");
        assertThat(placement.serverFor(Integer.MAX_VALUE, 128).getHostString()).isEqualTo("stash2.example");
    }

    @Test
    void listOrderDoesNotMatter() {
        List<InetSocketAddress> shuffled = servers(7);
        StashPlacement ordered = new StashPlacement(shuffled);
        Collections.shuffle(shuffled, new Random(3));
        StashPlacement other = new StashPlacement(shuffled);
        for (int vault = 0; vault < 50; vault++) {
            for (int shard = 0; shard < 20; shard++) {
                assertThat(other.serverFor(vault, shard)).isEqualTo(ordered.serverFor(vault, shard));
            }
        }
    }

    @Test
    void slotsSpreadEvenly() {
        StashPlacement placement = new StashPlacement(servers(5));
        Map<InetSocketAddress, Integer> counts = new HashMap<>();
        int slots = 0;
        for (int vault = 0; vault < 200; vault++) {
            for (int shard = 0; shard < 20; shard++) {
                counts.merge(placement.serverFor(vault, shard), 1, Integer::sum);
                slots++;
            }
        }
        assertThat(counts).hasSize(5);
        for (int count : counts.values()) {
            assertThat(count).isBetween(slots / 5 * 85 / 100, slots / 5 * 115 / 100);
        }
    }

    @Test
    void removingAServerMovesOnlyItsSlots() {
        List<InetSocketAddress> five = servers(5);
        StashPlacement before = new StashPlacement(five);
        InetSocketAddress removed = five.get(2);
        List<InetSocketAddress> four = new ArrayList<>(five);
        four.remove(removed);
        StashPlacement after = new StashPlacement(four);
        for (int vault = 0; vault < 100; vault++) {
            for (int shard = 0; shard < 20; shard++) {
                if (!before.serverFor(vault, shard).equals(removed)) {
                    assertThat(after.serverFor(vault, shard)).isEqualTo(before.serverFor(vault, shard));
                }
            }
        }
    }

    @Test
    void rejectsBadArguments() {
        assertThatThrownBy(() -> new StashPlacement(List.of())).isInstanceOf(IllegalArgumentException.class);
        List<InetSocketAddress> twice = List.of(new InetSocketAddress("127.0.0.1", 1), new InetSocketAddress("127.0.0.1", 1));
        assertThatThrownBy(() -> new StashPlacement(twice)).hasMessageContaining("127.0.0.1:1");
        StashPlacement placement = new StashPlacement(servers(2));
        assertThatThrownBy(() -> placement.serverFor(-1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> placement.serverFor(0, 256)).isInstanceOf(IllegalArgumentException.class);
    }
}
