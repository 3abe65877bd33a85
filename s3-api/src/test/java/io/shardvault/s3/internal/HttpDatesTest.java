package io.shardvault.s3.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class HttpDatesTest {
    private static final Instant RFC_EXAMPLE = Instant.parse("1994-11-06T08:49:37Z");

    @Test
    void daysOneToNineHaveTwoDigits() {
        assertThat(HttpDates.format(Instant.parse("2026-12-03T04:05:06Z"))).isEqualTo("Thu, 03 Dec 2026 04:05:06 GMT");
        for (int day = 1; day <= 9; day++) {
            Instant t = LocalDate.of(2027, 2, day).atTime(23, 59, 59).toInstant(ZoneOffset.UTC);
            String formatted = HttpDates.format(t);
            assertThat(formatted).matches("[A-Z][a-z]{2}, 0" + day + " Feb 2027 23:59:59 GMT");
            assertThat(HttpDates.parse(formatted)).isEqualTo(t);
        }
    }

    @Test
    void formatWithinOneSecondGivesOneStringAndTheNextSecondAnother() {
        // The formatter keeps the last second's string: a second apart, or back in time, must not reuse it.
        String midnight = "Sat, 10 Jan 2026 00:00:00 GMT";
        assertThat(HttpDates.format(Instant.parse("2026-01-10T00:00:00.100Z"))).isEqualTo(midnight);
        assertThat(HttpDates.format(Instant.parse("2026-01-10T00:00:00.900Z"))).isEqualTo(midnight);
        assertThat(HttpDates.format(Instant.parse("2026-01-10T00:00:01Z"))).isEqualTo("Sat, 10 Jan 2026 00:00:01 GMT");
        assertThat(HttpDates.format(Instant.parse("2025-01-10T00:00:01Z"))).isEqualTo("Fri, 10 Jan 2025 00:00:01 GMT");
    }

    @Test
    void formatDropsFractionsOfASecond() {
        assertThat(HttpDates.format(Instant.parse("2026-01-10T00:00:00.999Z"))).isEqualTo("Sat, 10 Jan 2026 00:00:00 GMT");
    }

    @Test
    void theThreeHttpFormatsAreRead() {
        assertThat(HttpDates.parse("Sun, 06 Nov 1994 08:49:37 GMT")).isEqualTo(RFC_EXAMPLE);
        assertThat(HttpDates.parse("Sunday, 06-Nov-94 08:49:37 GMT")).isEqualTo(RFC_EXAMPLE);
        assertThat(HttpDates.parse("Sun Nov  6 08:49:37 1994")).isEqualTo(RFC_EXAMPLE);
        assertThat(HttpDates.parse("Thu Dec 10 08:49:37 2026")).isEqualTo(Instant.parse("2026-12-10T08:49:37Z"));
        // Lenient on what some senders write: a one-digit day, surrounding blanks, an ISO-8601 instant.
        assertThat(HttpDates.parse(" Sun, 6 Nov 1994 08:49:37 GMT ")).isEqualTo(RFC_EXAMPLE);
        assertThat(HttpDates.parse("1994-11-06T08:49:37Z")).isEqualTo(RFC_EXAMPLE);
    }

    @Test
    void aTwoDigitYearMoreThanFiftyYearsAheadIsTheCenturyBefore() {
        Instant now = Instant.parse("2026-06-01T00:00:00Z");
        assertThat(HttpDates.parse("Sunday, 06-Nov-94 08:49:37 GMT", now)).isEqualTo(RFC_EXAMPLE);
        assertThat(HttpDates.parse("Thursday, 03-Dec-26 04:05:06 GMT", now))
                .isEqualTo(Instant.parse("2026-12-03T04:05:06Z"));
        assertThat(HttpDates.parse("Monday, 01-Jan-74 00:00:00 GMT", now))
                .isEqualTo(Instant.parse("2074-01-01T00:00:00Z"));
        assertThat(HttpDates.parse("Saturday, 01-Jan-77 00:00:00 GMT", now))
                .isEqualTo(Instant.parse("1977-01-01T00:00:00Z"));
    }

    @Test
    void anythingElseIsNull() {
        assertThat(HttpDates.parse(null)).isNull();
        assertThat(HttpDates.parse("")).isNull();
        assertThat(HttpDates.parse("yesterday")).isNull();
        assertThat(HttpDates.parse("Sun, 06 Nov 1994 08:49:37")).isNull();
        assertThat(HttpDates.parse("Sun, 32 Nov 1994 08:49:37 GMT")).isNull();
    }
}
