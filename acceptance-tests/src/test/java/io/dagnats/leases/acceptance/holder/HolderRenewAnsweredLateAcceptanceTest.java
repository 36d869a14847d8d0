package io.dagnats.leases.acceptance.holder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.DelayingProxy;
import io.dagnats.leases.acceptance.harness.OwnershipHistory;
import io.dagnats.leases.acceptance.harness.OwnershipLog;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.acceptance.harness.ToldListener;
import io.dagnats.leases.holder.KeptLease;
import io.dagnats.leases.holder.LeaseHolder;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A renew whose answer arrives after the holder's request timeout (issue 20, finding 2): the
 * renew reached the server and was written, only its answer came late. Nothing was lost, so
 * the holder keeps its tenure: one {@code becameOwner}, no {@code stoppedOwning}, the same
 * tenure start throughout, and its own record shows one unbroken ownership. Five times in a
 * row. The holder reaches the server through a {@link DelayingProxy} that, right after one of
 * its renews, holds every server-to-client byte 500 ms for 1.1 s: the next renew (a third of
 * the TTL later) is answered 500 ms late against a 300 ms timeout.
 */
class HolderRenewAnsweredLateAcceptanceTest extends SharedServiceTest {

    private static final Duration TTL = Duration.ofSeconds(3);
    private static final Duration REQUEST_TIMEOUT = Duration.ofMillis(300);
    private static final Duration ANSWER_DELAY = Duration.ofMillis(500);
    private static final Duration DELAYED_FOR = Duration.ofMillis(1_100);
    private static final int ROUNDS = 5;

    @Test
    void aRenewAnsweredAfterTheTimeoutKeepsTheTenureFiveTimesInARow() throws Exception {
        String key = "renew-answered-late";
        ToldListener listener = new ToldListener();
        List<ToldListener.Told> told = listener.told();
        List<String> lines = OwnershipLog.lines();
        try (DelayingProxy proxy = DelayingProxy.to(service.nats.url());
                Connection throughProxy = Nats.connect(proxy.url());
                LeaseHolder holder = LeaseHolder.builder(throughProxy).holderPrefix("late-answers")
                        .requestTimeout(REQUEST_TIMEOUT).build();
                OwnershipLog log = OwnershipLog.inMemory("late-answers", lines)) {
            KeptLease lease = log.keep(key, holder.id().value(), () -> holder.keep(key, TTL, listener));
            Polling.until(Duration.ofSeconds(20), "the holder to own " + key, lease::isOwner, owner -> owner);
            long firstStart = lease.tenure().orElseThrow().start().revision();

            for (int round = 1; round <= ROUNDS; round++) {
                // Each round begins just after a renew, so the next renew falls inside the delay.
                int renewsBefore = listener.count("renewed");
                Polling.until(TTL, "round " + round + ": a renew to start from", () -> listener.count("renewed"),
                        renews -> renews > renewsBefore);
                long delayEnds = proxy.delayServerBytes(ANSWER_DELAY, DELAYED_FOR);
                long undelayed = delayEnds + ANSWER_DELAY.toNanos();
                // It ends on an answer no delay touched: a renewal, or (on a holder that lost it) a new tenure.
                Polling.until(TTL.multipliedBy(3), "round " + round + ": an ownership confirmed after the delay",
                        () -> told.stream().filter(one -> one.nanos() - undelayed > 0
                                && (one.what().equals("renewed") || one.what().equals("becameOwner"))).count(),
                        confirmed -> confirmed > 0);
            }

            List<String> calls = told.stream().map(ToldListener.Told::toString).toList();
            String what = ROUNDS + " rounds of renews answered " + ANSWER_DELAY.toMillis() + " ms late against a "
                    + REQUEST_TIMEOUT.toMillis() + " ms timeout; the listener was told " + calls;
            assertEquals(1, listener.count("becameOwner"), "became owner exactly once: " + what);
            assertEquals(0, listener.stops(), "never stopped owning: " + what);
            assertEquals(List.of(firstStart), told.stream().filter(one -> one.tenure() != null)
                    .map(one -> one.tenure().start().revision()).distinct().toList(), "one tenure start: " + what);
            assertTrue(lease.isOwner(), "still owner: " + what);
            assertEquals(firstStart, lease.tenure().orElseThrow().start().revision(), "the same tenure: " + what);
            // Its own record: one window, never a look that found it not owning.
            List<String> ends = lines.stream().filter(line -> line.contains(" free ") || line.contains(" late "))
                    .toList();
            assertEquals(List.of(), ends, "ownership unbroken by the holder's own record: " + what);
            OwnershipHistory history = OwnershipHistory.fromLines(lines);
            history.assertSafe();
            assertEquals(1, history.windows().size(), "one ownership window: " + history.windows() + "; " + what);
        }
    }
}
