package io.dagnats.leases.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The runner says what the rules say, once per drop and return, and asks for one new consumer per return. */
class WatchProgressTest {

    private final StringWriter err = new StringWriter();
    private final WatchProgress progress = new WatchProgress(new PrintWriter(err, true));

    @Test
    void aWatchOfTheChangeEventsSaysOnceThatItMissesChangesAndOnceThatItIsBack() {
        progress.followingEvents();
        for (int attempt = 0; attempt < 7; attempt++) {
            progress.connectivity(NatsSession.Connectivity.LOST);
        }
        progress.connectivity(NatsSession.Connectivity.BACK);
        progress.connectivity(NatsSession.Connectivity.BACK);

        assertEquals(List.of("dagnats: NATS connection lost; reconnecting (changes meanwhile are missed)",
                "dagnats: NATS connection back"), err.toString().lines().toList());
    }

    @Test
    void aWatchOfTheStreamReopensOncePerReturnFromTheRevisionItPrintsNext() {
        progress.startAt(40);
        assertTrue(progress.delivered(40, 0));
        assertFalse(progress.takeReopen());

        progress.connectivity(NatsSession.Connectivity.LOST);
        progress.connectivity(NatsSession.Connectivity.LOST);
        progress.connectivity(NatsSession.Connectivity.BACK);

        assertTrue(progress.takeReopen());
        assertFalse(progress.takeReopen());
        assertEquals(41, progress.next());
        assertEquals(2, err.toString().lines().count(), err.toString());
    }
}
