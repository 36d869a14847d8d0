package io.dagnats.leases.protocol;

import java.time.Instant;
import java.time.format.DateTimeFormatter;

/**
 * Instants as the contract and the stored records spell them: exactly what
 * {@link DateTimeFormatter#ISO_INSTANT} writes ({@code 2026-11-30T12:00:00Z},
 * {@code ...:00.250Z}, fractions in groups of three digits), and read back as
 * {@link Instant#parse} reads them. Done by hand for the shapes every request
 * meets (years 0000 to 9999, UTC, no leap second), because the JDK's formatter
 * builds a dozen objects per instant; anything else goes to the JDK, so the
 * result (or the exception) is always the JDK's.
 */
public final class Timestamps {

    private static final long SECONDS_PER_DAY = 86_400;
    /** 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z: the years written with four digits and no sign. */
    private static final long FIRST_SECOND = -62_167_219_200L;
    private static final long PAST_LAST_SECOND = 253_402_300_800L;
    private static final int MAX_LENGTH = 30;

    private Timestamps() {
    }

    /** {@code DateTimeFormatter.ISO_INSTANT.format(instant)}. */
    public static String format(Instant instant) {
        byte[] out = new byte[MAX_LENGTH];
        int length = write(instant, out, 0);
        return length < 0 ? DateTimeFormatter.ISO_INSTANT.format(instant)
                : new String(out, 0, length, java.nio.charset.StandardCharsets.US_ASCII);
    }

    /**
     * Writes {@code format(instant)} in ASCII into {@code out} from {@code at} (room for 30 bytes).
     *
     * @return the index after the last byte written, or -1 when the instant is outside the
     *     hand-written shapes (nothing is then written; use {@link #format})
     */
    static int write(Instant instant, byte[] out, int at) {
        long seconds = instant.getEpochSecond();
        if (seconds < FIRST_SECOND || seconds >= PAST_LAST_SECOND) {
            return -1;
        }
        long day = Math.floorDiv(seconds, SECONDS_PER_DAY);
        int secondOfDay = (int) Math.floorMod(seconds, SECONDS_PER_DAY);
        long date = civil(day);
        int i = at;
        i = digits(out, i, (int) (date / 10_000), 4);
        out[i++] = '-';
        i = digits(out, i, (int) (date / 100 % 100), 2);
        out[i++] = '-';
        i = digits(out, i, (int) (date % 100), 2);
        out[i++] = 'T';
        i = digits(out, i, secondOfDay / 3600, 2);
        out[i++] = ':';
        i = digits(out, i, secondOfDay / 60 % 60, 2);
        out[i++] = ':';
        i = digits(out, i, secondOfDay % 60, 2);
        int nanos = instant.getNano();
        if (nanos != 0) {
            out[i++] = '.';
            if (nanos % 1_000_000 == 0) {
                i = digits(out, i, nanos / 1_000_000, 3);
            } else if (nanos % 1_000 == 0) {
                i = digits(out, i, nanos / 1_000, 6);
            } else {
                i = digits(out, i, nanos, 9);
            }
        }
        out[i++] = 'Z';
        return i;
    }

    /** {@code Instant.parse(text)}, with its exception for what it refuses. */
    public static Instant parse(CharSequence text) {
        Instant fast = parseUtc(text);
        return fast != null ? fast : Instant.parse(text);
    }

    /** {@code yyyy-MM-ddTHH:mm:ss[.f{1,9}]Z} with every field in range; null for anything else. */
    private static Instant parseUtc(CharSequence text) {
        int length = text.length();
        if (length < 20 || length > MAX_LENGTH || text.charAt(length - 1) != 'Z'
                || text.charAt(4) != '-' || text.charAt(7) != '-' || text.charAt(10) != 'T'
                || text.charAt(13) != ':' || text.charAt(16) != ':') {
            return null;
        }
        int year = number(text, 0, 4);
        int month = number(text, 5, 2);
        int day = number(text, 8, 2);
        int hour = number(text, 11, 2);
        int minute = number(text, 14, 2);
        int second = number(text, 17, 2);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > monthLength(year, month)
                || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
            return null;
        }
        int nanos = 0;
        if (length > 20) {
            int fraction = length - 21;
            if (text.charAt(19) != '.' || fraction < 1 || fraction > 9) {
                return null;
            }
            nanos = number(text, 20, fraction);
            if (nanos < 0) {
                return null;
            }
            for (int scale = fraction; scale < 9; scale++) {
                nanos *= 10;
            }
        }
        long seconds = epochDay(year, month, day) * SECONDS_PER_DAY + hour * 3600L + minute * 60L + second;
        return Instant.ofEpochSecond(seconds, nanos);
    }

    /** The decimal number in {@code count} characters from {@code at}; -1 when one is not a digit. */
    private static int number(CharSequence text, int at, int count) {
        int value = 0;
        for (int i = at; i < at + count; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static int digits(byte[] out, int at, int value, int count) {
        for (int i = at + count - 1; i >= at; i--) {
            out[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        return at + count;
    }

    private static int monthLength(int year, int month) {
        return switch (month) {
            case 2 -> (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    // Days from civil dates and back: Howard Hinnant's algorithms (proleptic Gregorian, as java.time).

    private static long epochDay(int year, int month, int day) {
        int y = month <= 2 ? year - 1 : year;
        int era = Math.floorDiv(y, 400);
        int yearOfEra = y - era * 400;
        int dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
        int dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        return era * 146_097L + dayOfEra - 719_468;
    }

    /** The date of {@code epochDay} as yyyyMMdd. */
    private static long civil(long epochDay) {
        long z = epochDay + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long dayOfEra = z - era * 146_097;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long mp = (5 * dayOfYear + 2) / 153;
        long day = dayOfYear - (153 * mp + 2) / 5 + 1;
        long month = mp < 10 ? mp + 3 : mp - 9;
        long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        return year * 10_000 + month * 100 + day;
    }
}
