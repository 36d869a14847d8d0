package io.dagnats.leases.acceptance.handover;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.acceptance.harness.Polling;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * From the s35 review of ADR-046, between real processes: the holder library's handover sends no
 * TTL, so the handed-over record keeps the old owner's, and the successor owning on dagnats' grant of
 * its yes counts its deadline from the shorter of that TTL and its own. A successor of TTL 15 s
 * handed a 2 s record must renew before that deadline, not a third of its own TTL later: else it
 * stops owning (its deadline passed) a moment after the handover, and races the record's expiry.
 */
class HandoverToALongerTtlAcceptanceTest {

    private static final Duration OLD_TTL = Duration.ofSeconds(2);
    private static final Duration SUCCESSOR_TTL = Duration.ofSeconds(15);

    @Test
    void aSuccessorHandedAShorterTtlThanItsOwnOwnsThroughItsFirstRenewWithoutStopping() throws Exception {
        String key = "longer-ttl-key";
        try (CandidateProcesses processes = new CandidateProcesses(OLD_TTL)) {
            Process leader = processes.candidate("r0", key, "0:1.0", "none", "10000:60000");
            processes.ownerStartingWith(key, "r0-");
            int before = processes.count("candidate r1-");
            processes.replicas.start("r1", key, SUCCESSOR_TTL, "candidacy=0:1.0", "succession=none",
                    "brakes=10000:60000");
            Polling.until(Duration.ofSeconds(60), "r1 to stand", () -> processes.count("candidate r1-"),
                    now -> now > before);

            CandidateProcesses.terminate(leader); // a SIGTERM'd leader hands over to the waiting r1
            long handed = processes.ownerStartingWith(key, "r1-").path("revision").asLong();
            processes.believesOwner("r1");
            // r1's first renew of its own: the key still r1's, at a higher revision.
            Polling.until(Duration.ofSeconds(30), "r1's first renew after the handover", () -> processes.service.client
                    .owner(key), reply -> reply.path("holder").asText().startsWith("r1-")
                            && reply.path("revision").asLong() > handed);

            List<String> stops = processes.told.stream().filter(line -> line.startsWith("stopped ")
                    && line.contains(" r1-")).toList();
            assertEquals(List.of(), stops, "the successor stopped owning before it renewed: " + processes.told);
            processes.replicas.history().assertSafe();
        }
    }
}
