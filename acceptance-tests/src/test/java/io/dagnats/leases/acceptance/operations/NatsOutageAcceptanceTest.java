package io.dagnats.leases.acceptance.operations;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.DagnatsProcess;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * An operator's view of a NATS outage (issue 29): the log says when it starts, when
 * it ends and in between a summary at most every few seconds, in words; a SIGTERM
 * while disconnected ends the process at once instead of waiting out the drain.
 */
class NatsOutageAcceptanceTest {

    private static final Duration WITHIN = Duration.ofSeconds(30);
    private static final String LOST = "NATS connection lost";

    @Test
    void anOutageIsALineWhenItStartsASummaryNowAndThenAndALineWhenItEnds() {
        try (NatsServerProcess nats = NatsServerProcess.modern();
                DagnatsProcess dagnats = DagnatsProcess.start(nats.url())) {
            nats.stop();
            Polling.until(WITHIN, "dagnats to say the connection is lost", () -> sinceLoss(dagnats).size(),
                    lines -> lines > 0);
            // Either the first summary comes, or the log floods (jnats fails two reconnects a second).
            List<String> outage = Polling.until(WITHIN, "a summary of the outage or a flood of lines",
                    () -> sinceLoss(dagnats), lines -> lines.size() > 10
                            || lines.stream().anyMatch(line -> line.contains("NATS still unreachable")));
            assertTrue(outage.size() <= 3, "the outage's lines so far:\n" + String.join("\n", outage));
            assertFalse(outage.stream().anyMatch(line -> line.contains("Exception")),
                    "lines in words, not class names:\n" + String.join("\n", outage));

            nats.startAgain();
            Polling.until(WITHIN, "dagnats to say the connection is back, and after how long",
                    () -> sinceLoss(dagnats), lines -> lines.stream()
                            .anyMatch(line -> line.contains("NATS connection back") && line.contains(" after ")));
        }
    }

    @Test
    void aSigtermWhileDisconnectedExitsAtOnceRatherThanWaitingOutTheDrain() {
        Duration drain = Duration.ofSeconds(30);
        try (NatsServerProcess nats = NatsServerProcess.modern();
                DagnatsProcess dagnats = DagnatsProcess.start(Map.of("NATS_URL", nats.url(),
                        "DAGNATS_DRAIN_TIMEOUT_MS", Long.toString(drain.toMillis())))) {
            nats.stop();
            Polling.until(WITHIN, "dagnats to say the connection is lost", () -> sinceLoss(dagnats).size(),
                    lines -> lines > 0);

            Optional<Duration> exited = dagnats.terminate(drain.plusSeconds(15));

            assertTrue(exited.isPresent() && exited.get().compareTo(Duration.ofSeconds(5)) < 0,
                    "exited after " + exited.map(Duration::toString).orElse("more than " + drain.plusSeconds(15))
                            + "; its log:\n" + dagnats.tail(10));
        }
    }

    /** The lines from the one that says the connection is lost on; none before it. */
    private static List<String> sinceLoss(DagnatsProcess dagnats) {
        List<String> lines = dagnats.lines();
        for (int index = 0; index < lines.size(); index++) {
            if (lines.get(index).contains(LOST)) {
                return List.copyOf(lines.subList(index, lines.size()));
            }
        }
        return List.of();
    }
}
