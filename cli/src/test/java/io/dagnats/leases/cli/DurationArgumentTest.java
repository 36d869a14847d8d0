package io.dagnats.leases.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DurationArgumentTest {

    private final Converters.Span span = new Converters.Span();

    @Test
    void aDurationIsANumberAndAUnit() {
        assertEquals(Duration.ofSeconds(15), span.convert("15s"));
        assertEquals(Duration.ofMillis(500), span.convert("500ms"));
        assertEquals(Duration.ofMinutes(2), span.convert("2m"));
    }

    @Test
    void anythingElseIsAUsageErrorThatShowsTheForm() {
        CommandLine.TypeConversionException refused =
                assertThrows(CommandLine.TypeConversionException.class, () -> span.convert("PT15S"));
        assertEquals("a duration is a number and ms, s or m (e.g. 15s), not PT15S", refused.getMessage());
        assertThrows(CommandLine.TypeConversionException.class, () -> span.convert("15"));
    }
}
