package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.protocol.Answers;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * An abandoned lease releases nothing, not even what the call in flight shows this process
 * holding: a shard's drain may still run under the tenure it was handed, and a release would
 * let another owner in under it. The TTL frees the key after the deadline of every tenure.
 */
class LeaseKeeperAbandonTest extends KeeperHarness {

    @Test
    void aGrantOfOurOwnUnansweredRenewalIsNotReleasedWhileTheDrainedTenureRuns() {
        becomeOwner(5, 6);
        // What ShardSet hands the drain: the tenure at the start of the drain.
        Tenure drained = lease.tenure().orElseThrow();
        // The renew at a third of the TTL is written on the server (revision 7); its reply is lost.
        scheduler.advance(TTL.duration().dividedBy(3));
        calls.next("renew").answer().completeExceptionally(new TimeoutException("no reply: the renew wrote 7"));
        scheduler.runDue();
        ScriptedCalls.Call resolving = calls.next("acquire");
        // The drain overruns its bound: ShardSet abandons the lease while the acquire is in flight.
        keeper.beginAbandon();
        scheduler.runDue();
        assertFalse(lease.isOwner(), "stops acting as owner at once");

        // The server grants our own revision 7 back, the same acquisition (tenure 5).
        resolving.answer().complete(new Answers.Acquire.Granted(mine(7, 5)));
        scheduler.advance(Duration.ofMillis(10));

        assertTrue(drained.actingAsOwner(scheduler.nanoTime()), "the drain's tenure still runs");
        assertEquals(List.of("acquire", "renew", "renew", "acquire"),
                calls.made().stream().map(ScriptedCalls.Call::operation).toList(),
                "no release while the drained tenure (fence " + drained.fence() + ") runs");
        assertEquals(new Fence(6), drained.fence());
    }
}
