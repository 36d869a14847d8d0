package io.dagnats.leases.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TimestampsTest {

    private static final long FIRST = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
    private static final long LAST = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();

    @Test
    void formatWritesWhatTheJdkWritesForEveryFractionShapeAndYear() {
        SplittableRandom random = new SplittableRandom(13);
        for (int i = 0; i < 200_000; i++) {
            long seconds = random.nextLong(FIRST - 100_000_000L, LAST + 100_000_000L);
            int nanos = switch (i % 4) {
                case 0 -> 0;
                case 1 -> random.nextInt(1000) * 1_000_000;
                case 2 -> random.nextInt(1_000_000) * 1_000;
                default -> random.nextInt(1_000_000_000);
            };
            Instant instant = Instant.ofEpochSecond(seconds, nanos);
            assertEquals(DateTimeFormatter.ISO_INSTANT.format(instant), Timestamps.format(instant));
        }
        for (Instant edge : List.of(Instant.EPOCH, Instant.MIN, Instant.MAX, Instant.ofEpochSecond(FIRST),
                Instant.ofEpochSecond(FIRST - 1, 999_999_999), Instant.ofEpochSecond(LAST, 999_999_999),
                Instant.ofEpochSecond(LAST + 1), Instant.parse("2024-02-29T23:59:59.000000001Z"))) {
            assertEquals(DateTimeFormatter.ISO_INSTANT.format(edge), Timestamps.format(edge));
        }
    }

    @Test
    void parseReadsWhatTheJdkReads() {
        SplittableRandom random = new SplittableRandom(31);
        for (int i = 0; i < 100_000; i++) {
            Instant instant = Instant.ofEpochSecond(random.nextLong(FIRST, LAST + 1), random.nextInt(1_000_000_000));
            String text = DateTimeFormatter.ISO_INSTANT.format(instant);
            assertEquals(instant, Timestamps.parse(text));
            String body = text.substring(0, text.length() - 1);
            assertSameAsJdk(body.substring(0, Math.min(body.length(), 19 + random.nextInt(11))) + "Z");
        }
        for (String other : List.of("2026-11-30T12:00:00+01:00", "+12026-11-30T12:00:00Z", "2026-11-30T23:59:60Z",
                "2026-11-30T24:00:00Z", "2024-02-29T00:00:00Z", "2026-11-30T12:00:00.Z")) {
            assertSameAsJdk(other);
        }
    }

    @Test
    void parseRefusesWhatTheJdkRefuses() {
        for (String bad : List.of("2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-11-31T00:00:00Z",
                "2026-11-30T12:60:00Z", "2026-11-30 12:00:00Z", "2026-11-30T12:00:00", "x026-11-30T12:00:00Z",
                "2026-11-30T12:00:00.1234567890Z", "2026-11-30T12:00:00.12a4Z", "", "Z")) {
            assertThrows(DateTimeException.class, () -> Instant.parse(bad), bad);
            assertThrows(DateTimeException.class, () -> Timestamps.parse(bad), bad);
        }
    }

    private static void assertSameAsJdk(String text) {
        Instant expected;
        try {
            expected = Instant.parse(text);
        } catch (DateTimeException refused) {
            assertThrows(DateTimeException.class, () -> Timestamps.parse(text), text);
            return;
        }
        assertEquals(expected, Timestamps.parse(text), text);
    }
}
