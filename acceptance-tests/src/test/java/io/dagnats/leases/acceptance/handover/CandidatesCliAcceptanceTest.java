package io.dagnats.leases.acceptance.handover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.CliProcess;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.acceptance.harness.WireClient;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code dagnats leases candidates KEY}: the live candidates as a table, or as JSON (ADR-042). */
class CandidatesCliAcceptanceTest extends SharedServiceTest {

    @Test
    void candidatesPrintsOneRowPerAnsweringCandidateSortedByHolder() throws Exception {
        try (PlayedCandidate zed = new PlayedCandidate(client.connection(), "cli-candidates", "zed", "iz");
                PlayedCandidate amy = new PlayedCandidate(client.connection(), "cli-candidates", "amy", "ia")) {

            CliProcess.Result table = CliProcess.run(service.nats.url(), "leases", "candidates", "cli-candidates");
            CliProcess.Result json = CliProcess.run(service.nats.url(), "leases", "candidates", "cli-candidates",
                    "-o", "json");

            assertEquals(0, table.exitCode(), table.toString());
            assertEquals(List.of("HOLDER", "INCARNATION", "PRIORITY", "VERSION", "WAITED", "STATE"),
                    List.of(table.outLines().get(0).split("\\s+")), table.toString());
            assertEquals(List.of("amy", "ia", "5", "1.4.0", "1s", "waiting"),
                    List.of(table.outLines().get(1).split("\\s+")), table.toString());
            assertTrue(table.outLines().get(2).startsWith("zed "), table.toString());
            assertEquals(3, table.outLines().size(), table.toString());
            assertEquals(0, json.exitCode(), json.toString());
            assertEquals(2, WireClient.json(json.out()).path("candidates").size(), json.toString());
        }
    }

    @Test
    void aKeyWithoutCandidatesSaysSo() {
        CliProcess.Result none = CliProcess.run(service.nats.url(), "leases", "candidates", "nobody-waits",
                "--window", "50");

        assertEquals(0, none.exitCode(), none.toString());
        assertEquals("no candidates for nobody-waits answered within 50 ms", none.out().strip());
    }
}
