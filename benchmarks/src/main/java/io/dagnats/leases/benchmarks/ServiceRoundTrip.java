package io.dagnats.leases.benchmarks;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.holder.LeaseClient;
import io.dagnats.leases.protocol.Answers;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Renews of one lease, one at a time, through dagnats on a connection of their own: before
 * {@link HandoverGap} measures, so that it measures a service that has served calls (as one does in
 * use, and as the main table's windows do) and not a freshly started JVM's interpreted first
 * calls; and as the one service round trip the handover gap is compared with, timed in the same
 * run on the same machine.
 */
final class ServiceRoundTrip {

    private ServiceRoundTrip() {
    }

    /** Times {@code calls} renews (after as many unmeasured ones); returns each round trip in nanoseconds. */
    static List<Long> renews(String url, int calls) throws Exception {
        return renews(url, calls, 0);
    }

    /**
     * The same, each timed renew sent {@code idleMillis} after the last answer: a round trip as a
     * handover meets the service and the holders, after a pause, not in a hot loop.
     */
    static List<Long> renews(String url, int calls, long idleMillis) throws Exception {
        try (Connection connection = Nats.connect(url)) {
            LeaseClient client = new LeaseClient(connection);
            LeaseKey key = new LeaseKey("handover-gap-round-trip");
            HolderId holder = new HolderId("gap-round-trip");
            LeaseTtl ttl = LeaseTtl.ofSeconds(30);
            Answers.Acquire granted = client.acquire(key, holder, ttl).get();
            if (!(granted instanceof Answers.Acquire.Granted first)) {
                throw new IllegalStateException("the round-trip key is held by another: " + granted);
            }
            Fence fence = first.lease().revision();
            List<Long> roundTrips = new ArrayList<>();
            for (int call = 0; call < 2 * calls; call++) {
                if (call >= calls && idleMillis > 0) {
                    Thread.sleep(idleMillis); // a benchmark's pause: the idle a handover starts from
                }
                long sent = System.nanoTime();
                Answers.Renew renewed = client.renew(key, holder, fence, Optional.empty()).get();
                long answered = System.nanoTime();
                if (!(renewed instanceof Answers.Renew.Renewed ok)) {
                    throw new IllegalStateException("the round-trip lease was lost: " + renewed);
                }
                fence = ok.lease().revision();
                if (call >= calls) {
                    roundTrips.add(answered - sent);
                }
            }
            client.release(key, holder, fence).get();
            return roundTrips;
        }
    }
}
