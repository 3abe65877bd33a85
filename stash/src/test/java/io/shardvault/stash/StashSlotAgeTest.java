package io.shardvault.stash;

import static io.shardvault.stash.StashFixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.shardvault.common.ShardId;
import io.shardvault.stash.internal.SlotAgeMonitor;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** A pod slot whose oldest entry is older than slotAgeWarning is named in a WARN and counted. */
@Timeout(60)
class StashSlotAgeTest {

    @TempDir
    Path dir;

    /** A clock that moves only when told. */
    static final class ManualClock extends Clock {
        final AtomicLong millis = new AtomicLong(1_700_000_000_000L);

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis.get());
        }

        void advance(Duration by) {
            millis.addAndGet(by.toMillis());
        }
    }

    @Test
    void staleSlotIsNamedUntilPurged() throws Exception {
        ManualClock clock = new ManualClock();
        StashConfig config = StashConfig.defaults(dir).withSlotAge(Duration.ofMinutes(5), Duration.ofHours(1));
        ch.qos.logback.classic.Logger log = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(SlotAgeMonitor.class);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        log.addAppender(appender);
        try (StashFixture stash = new StashFixture(config, clock)) {
            ShardId stale = new ShardId(4, 1, 9);
            await(stash.put(stale, 0, new byte[10]));
            clock.advance(Duration.ofMinutes(4));
            await(stash.put(new ShardId(4, 2, 8), 0, new byte[10]));
            assertThat(stash.server.slotAgeMonitor().check()).isEmpty();

            clock.advance(Duration.ofMinutes(2));
            List<SlotAgeMonitor.StaleSlot> found = stash.server.slotAgeMonitor().check();
            assertThat(found).containsExactly(new SlotAgeMonitor.StaleSlot(4, 9, Duration.ofMinutes(6)));
            assertThat(stash.registry.get("shardvault.stash.stale.slots").gauge().value()).isEqualTo(1);
            assertThat(stash.registry.get("shardvault.stash.oldest.entry.age").timeGauge()
                    .value(java.util.concurrent.TimeUnit.MINUTES)).isEqualTo(6);
            assertThat(appender.list).anySatisfy(event -> {
                assertThat(event.getLevel()).isEqualTo(Level.WARN);
                assertThat(event.getFormattedMessage()).contains("vaultId=4 shardIndex=9").contains("not purging");
            });

            await(stash.client.purge(stash.address(), List.of(stale)));
            assertThat(stash.server.slotAgeMonitor().check()).isEmpty();
            assertThat(stash.registry.get("shardvault.stash.stale.slots").gauge().value()).isZero();
            assertThat(await(stash.client.stats(stash.address())).oldestEntryAgeMillis())
                    .isEqualTo(Duration.ofMinutes(2).toMillis());
        } finally {
            log.detachAppender(appender);
        }
    }
}
