package io.dagnats.leases.acceptance.handover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.holder.Candidate;
import io.dagnats.leases.holder.KeepOptions;
import io.dagnats.leases.holder.internal.candidacy.CandidateDesk;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The owner's ask of a key's candidates against a real nats-server: with nobody standing, the
 * server's no-responders status ends it at once, so a close with no candidate waits no window;
 * with a candidate standing, its answer is gathered, and what it says of itself is read back.
 */
class CandidateAskAcceptanceTest {

    @Test
    void anAskNobodyAnswersEndsAtOnceAndAStandingCandidateIsGathered() throws Exception {
        try (NatsServerProcess nats = NatsServerProcess.modern();
                Connection owner = Nats.connect(nats.url());
                Connection waiter = Nats.connect(nats.url())) {
            CandidateDesk asking = new CandidateDesk(owner, Claimant.of(new HolderId("o"), new Incarnation("o1")),
                    MonotonicClock.SYSTEM);
            LeaseKey key = new LeaseKey("asked");
            long started = System.nanoTime();
            List<Candidate> nobody = asking.ask(key, Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS);
            long tookMillis = (System.nanoTime() - started) / 1_000_000;
            assertEquals(List.of(), nobody);
            assertTrue(tookMillis < 2_000, "ended by no-responders, not the 5 s window: " + tookMillis + " ms");

            CandidateDesk standing = new CandidateDesk(waiter, Claimant.of(new HolderId("w"), new Incarnation("w1")),
                    MonotonicClock.SYSTEM);
            standing.stand(key, new KeepOptions.Priority(7, "1.2"), new CandidateDesk.Seat() {
                @Override
                public boolean waiting() {
                    return true;
                }

                @Override
                public boolean owner() {
                    return false;
                }

                @Override
                public void expecting(boolean granting) {
                }

                @Override
                public void granted(io.dagnats.leases.protocol.LeaseView lease, long saidAt) {
                }
            });
            waiter.flush(Duration.ofSeconds(5));
            List<Candidate> gathered = asking.ask(key, Duration.ofMillis(300)).get(10, TimeUnit.SECONDS);
            assertEquals(1, gathered.size(), "the standing candidate: " + gathered);
            assertEquals(new HolderId("w"), gathered.get(0).holder());
            assertEquals(7, gathered.get(0).priority());
            assertEquals("1.2", gathered.get(0).version());
            assertTrue(gathered.get(0).waiting());
            standing.close();
            asking.close();
        }
    }
}
