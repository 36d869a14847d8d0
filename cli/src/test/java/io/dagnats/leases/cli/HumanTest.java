package io.dagnats.leases.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.domain.LeaseTtl;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class HumanTest {

    @Test
    void timeLeftShowsTenthsUnderAMinuteAndNeverGoesNegative() {
        assertEquals("14.2s", Human.timeLeft(Duration.ofMillis(14_249)));
        assertEquals("0.1s", Human.timeLeft(Duration.ofMillis(100)));
        assertEquals("0s", Human.timeLeft(Duration.ofMillis(-300)));
        assertEquals("2m05s", Human.timeLeft(Duration.ofSeconds(125)));
    }

    @Test
    void spansUseTheTwoLargestUnits() {
        assertEquals("45s", Human.span(Duration.ofMillis(45_900)));
        assertEquals("3h04m", Human.span(Duration.ofMinutes(184)));
        assertEquals("2d03h", Human.span(Duration.ofHours(51)));
        assertEquals("0s", Human.span(Duration.ofSeconds(-5)));
    }

    @Test
    void settingsAreExact() {
        assertEquals("15s", Human.ttl(LeaseTtl.ofSeconds(15)));
        assertEquals("1m30s", Human.ttl(LeaseTtl.ofSeconds(90)));
        assertEquals("10m", Human.ttl(LeaseTtl.ofSeconds(600)));
        assertEquals("59s", Human.setting(Duration.ofSeconds(59)));
        assertEquals("1m", Human.setting(Duration.ofSeconds(60)));
    }

    @Test
    void timesAreUtcToTheSecondOrMillisecond() {
        Instant instant = Instant.parse("2026-11-30T12:00:05.250Z");
        assertEquals("2026-11-30T12:00:05Z", Human.time(instant));
        assertEquals("2026-11-30T12:00:05.250Z", Human.preciseTime(instant));
    }

    @Test
    void countsReadAsEnglish() {
        assertEquals("no leases", Human.count(0, "lease"));
        assertEquals("1 lease", Human.count(1, "lease"));
        assertEquals("3 leases", Human.count(3, "lease"));
    }

    @Test
    void tableColumnsLineUpTwoSpacesApart() {
        StringWriter text = new StringWriter();
        new Table("KEY", "HOLDER", "TTL").row("a-long-key", "h", "15s").row("k", "holder-2", "1m").print(new PrintWriter(text, true));
        assertEquals(String.join(System.lineSeparator(),
                "KEY         HOLDER    TTL",
                "a-long-key  h         15s",
                "k           holder-2  1m", ""), text.toString());
    }
}
