package io.dagnats.leases.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OutageLinesTest {

    private static final long SECOND = Duration.ofSeconds(1).toNanos();

    @Test
    void aTwoMinuteOutageWithTwoFailedReconnectsASecondIsAFewLinesNotHundreds() {
        List<String> lines = new ArrayList<>();
        OutageLines.Next next = OutageLines.lost(new OutageLines.Up(), 0);
        next.line().ifPresent(lines::add);
        for (long at = 0; at < 120 * SECOND; at += SECOND / 2) {
            next = OutageLines.problem(next.link(), at, "Connection refused");
            next.line().ifPresent(lines::add);
        }
        next = OutageLines.back(next.link(), 120 * SECOND, "nats://127.0.0.1:4222");
        next.line().ifPresent(lines::add);

        assertEquals("NATS connection lost; reconnecting", lines.get(0));
        assertEquals("NATS connection back, to nats://127.0.0.1:4222, after 120 s", lines.get(lines.size() - 1));
        long summaries = 120 / OutageLines.SUMMARY_EVERY.toSeconds();
        assertTrue(lines.size() <= summaries + 2, lines.toString());
        assertTrue(lines.get(1).startsWith("NATS still unreachable after 10 s: 21 failed attempts"), lines.get(1));
        assertTrue(next.link() instanceof OutageLines.Up);
    }

    @Test
    void aProblemWhileConnectedIsALineOfItsOwn() {
        OutageLines.Next next = OutageLines.problem(new OutageLines.Up(), 0, "Read channel closed");

        assertEquals("NATS connection problem: Read channel closed", next.line().orElseThrow());
    }

    @Test
    void aSecondLostEventInTheSameOutageSaysNothing() {
        OutageLines.Next first = OutageLines.lost(new OutageLines.Up(), 0);

        assertFalse(OutageLines.lost(first.link(), SECOND).line().isPresent());
    }

    @Test
    void faultsAreToldInWordsNotClassNames() {
        assertEquals("Read channel closed", OutageLines.words(new IOException("Read channel closed")));
        assertEquals("Connection refused", OutageLines.words(new IOException(new ConnectException("Connection refused"))));
        String nameless = OutageLines.words(new IllegalStateException());
        assertFalse(nameless.contains("Exception"), nameless);
    }
}
