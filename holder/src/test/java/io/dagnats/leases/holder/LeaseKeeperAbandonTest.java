package io.dagnats.leases.holder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.protocol.Answers;
import io.opentelemetry.api.OpenTelemetry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * An abandoned lease releases nothing, not even what an acquire in flight is granted:
 * a revision cannot tell "our own renewal whose reply was lost" (a drain's tenure may
 * still run under that lease) from "a fresh grant nobody acts under". Releasing the
 * latter (tried after review 12b) freed the key under a live drain (review 12c); the
 * cost of leaving both to the TTL is a key held for a TTL with no owner, in a rare path.
 */
class LeaseKeeperAbandonTest {

    private static final LeaseTtl TTL = new LeaseTtl(15_000);

    private final ManualScheduler scheduler = new ManualScheduler();
    private final ScriptedCalls calls = new ScriptedCalls();
    private final LeaseKeeper keeper = new LeaseKeeper(new LeaseKey("k"), new HolderId("me"), TTL, calls, scheduler,
            scheduler, OwnershipListener.NONE, new HolderTelemetry(OpenTelemetry.noop(), Map::of, () -> null));
    private final KeptLease lease = new KeptLease(keeper, () -> { });

    private void answer(String operation, Object answer) {
        calls.next(operation).answer().complete(answer);
        scheduler.runDue();
    }

    @Test
    void aGrantOfOurOwnUnseenRenewalIsNotReleasedWhileTheDrainedTenureRuns() {
        keeper.start();
        scheduler.runDue();
        answer("acquire", new Answers.Acquire.Granted(ScriptedCalls.lease("me", 5)));
        answer("renew", new Answers.Renew.Renewed(ScriptedCalls.lease("me", 6)));
        // What ShardSet.giveUp hands the drain: the tenure at the start of the drain.
        Tenure drained = lease.tenure().orElseThrow();

        // The renew at a third of the TTL is written on the server (revision 7), its reply is lost.
        scheduler.advance(TTL.duration().dividedBy(3));
        ScriptedCalls.Call unseen = calls.next("renew");
        assertEquals(new Fence(6), unseen.presented());
        unseen.answer().completeExceptionally(new TimeoutException("no reply: the renew wrote revision 7"));
        scheduler.runDue();
        // The retry presents 6 again; the server holds 7 for us, so: lost.
        scheduler.advance(Duration.ofSeconds(1));
        ScriptedCalls.Call retry = calls.next("renew");
        assertEquals(new Fence(6), retry.presented());
        retry.answer().complete(new Answers.Renew.Lost("revision 6 is not the current fence"));
        scheduler.runDue();
        scheduler.advance(Duration.ofMillis(50));
        ScriptedCalls.Call acquire = calls.next("acquire");
        // The drain overruns its bound: ShardSet abandons the lease while the acquire is in flight.
        keeper.beginAbandon();
        scheduler.runDue();
        // Same holder id: the server grants our own revision 7 back, unchanged.
        acquire.answer().complete(new Answers.Acquire.Granted(ScriptedCalls.lease("me", 7)));
        scheduler.runDue();

        long left = drained.nanosLeft(scheduler.nanoTime());
        assertTrue(drained.actingAsOwner(scheduler.nanoTime()), "the drain's tenure still runs");
        scheduler.advance(Duration.ofMillis(10));
        List<String> releases = new ArrayList<>();
        for (ScriptedCalls.Call call : calls.made()) {
            if (call.operation().equals("release")) {
                releases.add("release presenting " + call.presented());
            }
        }
        assertEquals(List.of(), releases, "the key is freed while the drained tenure (fence " + drained.fence()
                + ") has " + Duration.ofNanos(left).toMillis() + " ms left");
    }
}
