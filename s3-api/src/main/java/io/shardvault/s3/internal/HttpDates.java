package io.shardvault.s3.internal;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * HTTP dates (RFC 9110 section 5.6.7): the one formatter of every date header the server writes, and the one
 * parser of every date header it reads. Stateless and thread-safe.
 *
 * <p>Written as IMF-fixdate, {@code Sun, 06 Nov 1994 08:49:37 GMT}: always a two-digit day, which
 * {@link DateTimeFormatter#RFC_1123_DATE_TIME} does not give on days 1 to 9. Read in the three forms a
 * recipient must accept: IMF-fixdate, the obsolete RFC 850 form {@code Sunday, 06-Nov-94 08:49:37 GMT} (a
 * two-digit year more than 50 years ahead is the century before, as the RFC says) and asctime
 * {@code Sun Nov  6 08:49:37 1994}; also ISO-8601 instants, which some S3 clients send.
 */
public final class HttpDates {
    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter RFC_850 =
            DateTimeFormatter.ofPattern("dd-MMM-yy HH:mm:ss 'GMT'", Locale.US);
    private static final DateTimeFormatter ASCTIME = DateTimeFormatter.ofPattern("EEE MMM d HH:mm:ss yyyy", Locale.US);

    /** The last second formatted: every response's Date header within one second is the same string. */
    private static volatile Formatted lastFormatted = new Formatted(Long.MIN_VALUE, "");

    private HttpDates() {
    }

    /** {@code t} as an IMF-fixdate, to the second. */
    public static String format(Instant t) {
        Formatted last = lastFormatted;
        if (last.epochSecond() == t.getEpochSecond()) {
            return last.text();
        }
        String text = IMF_FIXDATE.format(t);
        lastFormatted = new Formatted(t.getEpochSecond(), text);
        return text;
    }

    private record Formatted(long epochSecond, String text) {
    }

    /**
     * An HTTP date in any of the accepted forms, or null when absent or unparseable: a conditional
     * header with a bad date is ignored (RFC 9110 sections 13.1.3 and 13.1.4; S3 does the same).
     */
    public static Instant parse(String value) {
        return parse(value, Instant.now());
    }

    /** As {@link #parse(String)}, with {@code now} deciding the century of an RFC 850 date. */
    static Instant parse(String value, Instant now) {
        if (value == null) {
            return null;
        }
        String v = value.trim();
        try {
            // RFC_1123_DATE_TIME also takes a one-digit day, which some senders write.
            return DateTimeFormatter.RFC_1123_DATE_TIME.parse(v, Instant::from);
        } catch (DateTimeParseException notImf) {
            // One of the others.
        }
        int comma = v.indexOf(", ");
        try {
            // The weekday is skipped: it names a day of the right century, which the parse does not know yet.
            LocalDateTime t = LocalDateTime.parse(comma < 0 ? v : v.substring(comma + 2), RFC_850);
            // The pattern's two-digit year falls in 2000-2099; more than 50 years ahead means the century before.
            if (t.toInstant(ZoneOffset.UTC).isAfter(now.atOffset(ZoneOffset.UTC).plusYears(50).toInstant())) {
                t = t.minus(100, ChronoUnit.YEARS);
            }
            return t.toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException notRfc850) {
            // One of the others.
        }
        try {
            // asctime pads a one-digit day with a space.
            return LocalDateTime.parse(v.replaceAll(" +", " "), ASCTIME).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException notAsctime) {
            // One of the others.
        }
        try {
            return Instant.parse(v);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
