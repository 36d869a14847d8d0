package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.holder.OwnershipListener.StopReason;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A write of the key by another (or ending the lease) that comes after this keeper's own write
 * is no sign of the store going back: revisions only grow, so it merely superseded that write.
 * Its event may be heard before the keeper's own answer is handled (the event is published by
 * the server at once, the answer is dagnats' reply, and the floors hear events on the
 * subscription's thread while the answer waits in the keeper's queue). The keeper must then
 * end the tenure for what the write was (a revoke), and never tell dagnats a revision the store
 * did not hand out: presented above the stream's last sequence, it "proves" a rollback that did
 * not happen, and dagnats skips every fence up and withholds grants for a grace.
 */
class KeeperWriteHeardAfterItsAnswerTest extends KeeperHarness {

    /**
     * Interleaving: owner at 6 renews, dagnats writes 7 and replies; an operator revokes at 8, the
     * stream's last write; the revoke's event is heard while the renew's answer (7) waits.
     */
    @Test
    void aRevokeHeardBeforeTheOwnersRenewAnswerIsARevokeNotTheStoreGoingBack() {
        becomeOwner(5, 6);
        scheduler.advance(TTL.duration().dividedBy(3));
        calls.next("renew").answer().complete(renewed(7, 5));
        keeper.keyChanged(change("revoked", 8, SELF));
        scheduler.runDue();

        assertFalse(lease.isOwner(), told.toString());
        assertEquals("stopped " + StopReason.REVOKED, told.get(told.size() - 1), told.toString());
        assertNothingPresentedAbove(8);
    }

    /**
     * Interleaving: granted 5, the grant's renew writes 6, an operator revokes at 7 (the stream's
     * last write), heard while the renew's answer (6) waits.
     */
    @Test
    void aRevokeHeardBeforeTheGrantsRenewAnswerPresentsNoRevisionTheStoreNeverIssued() {
        keeper.start();
        scheduler.runDue();
        answer("acquire", granted(5));
        calls.next("renew").answer().complete(renewed(6, 5));
        keeper.keyChanged(change("revoked", 7, SELF));
        scheduler.runDue();

        assertFalse(lease.isOwner(), told.toString());
        assertNothingPresentedAbove(7);
    }

    /** No call made so far told dagnats the store went back: nothing did, and {@code last} is the stream's last sequence. */
    private void assertNothingPresentedAbove(long last) {
        List<String> reports = calls.made().stream().filter(call -> call.key().value().endsWith("-went-back"))
                .map(call -> call.operation() + " " + call.key() + " presenting " + call.presented()).toList();
        assertTrue(reports.isEmpty(), "told dagnats the store went back (the stream's last sequence is "
                + new Fence(last) + "): " + reports);
    }
}
