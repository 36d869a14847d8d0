package io.dagnats.leases.domain;

import static io.dagnats.leases.domain.LeaseRuleExamples.ALICE;
import static io.dagnats.leases.domain.LeaseRuleExamples.ALICE_RUN_1;
import static io.dagnats.leases.domain.LeaseRuleExamples.ALICE_RUN_2;
import static io.dagnats.leases.domain.LeaseRuleExamples.BOB;
import static io.dagnats.leases.domain.LeaseRuleExamples.T0;
import static io.dagnats.leases.domain.LeaseRuleExamples.T1;
import static io.dagnats.leases.domain.LeaseRuleExamples.TTL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The liveness rule of an attached key (ADR-043): owned while its member tenure is live and its holder's, else free. */
class AttachedLivenessTest {

    private static final LeaseKey SHARD = new LeaseKey("orders-shard-7");
    private static final LeaseKey MEMBER = new LeaseKey("orders-member-alice");
    private static final Fence MEMBER_TENURE = new Fence(40);
    private static final Instant ATTACHED_AT = Instant.parse("2026-10-18T12:00:02Z");

    private static AttachedRecord attachedFor(Claimant holder) {
        return new AttachedRecord(SHARD, holder, new Fence(52), new Fence(52), ATTACHED_AT,
                new Attachment(MEMBER, MEMBER_TENURE, Optional.of("2")));
    }

    private static KeyState member(Claimant holder, long revision, long tenure) {
        return new KeyState.Held(new Lease(MEMBER, holder.holder(), holder.incarnation(), new Fence(revision),
                new Fence(tenure), T0, T1, TTL));
    }

    @Test
    void aLiveMemberTenureOfTheSameHolderOwnsTheKeyAtItsOwnFenceUntilTheMembersExpiry() {
        KeyState judged = AttachedLiveness.judge(attachedFor(ALICE), member(ALICE, 61, 40));
        Lease lease = assertInstanceOf(KeyState.Held.class, judged).lease();
        assertEquals(SHARD, lease.key());
        assertEquals(ALICE, lease.claimant());
        assertEquals(new Fence(52), lease.revision(), "the shard's own fence, not the member's renewals");
        assertEquals(new Fence(52), lease.tenure());
        assertEquals(ATTACHED_AT, lease.acquiredAt());
        assertEquals(T1.plusMillis(TTL.millis()), lease.expiresAt(), "the member's expiry");
        assertEquals(Optional.of(new Attachment(MEMBER, MEMBER_TENURE, Optional.of("2"))), lease.attachment());
    }

    @Test
    void anAbsentMemberFreesTheKeyAtItsRevision() {
        assertFree(AttachedLiveness.judge(attachedFor(ALICE), new KeyState.Free(MEMBER, 0)));
    }

    @Test
    void anExpiredReleasedOrRevokedMemberFreesTheKey() {
        // The store answers an ended lease as free at the marker's or tombstone's sequence.
        assertFree(AttachedLiveness.judge(attachedFor(ALICE), new KeyState.Free(MEMBER, 70)));
    }

    @Test
    void aMemberHeldByAnotherHolderFreesTheKey() {
        assertFree(AttachedLiveness.judge(attachedFor(ALICE), member(BOB, 61, 40)));
    }

    @Test
    void aMemberHeldByAnotherIncarnationFreesTheKey() {
        assertFree(AttachedLiveness.judge(attachedFor(ALICE_RUN_1), member(ALICE_RUN_2, 61, 40)));
        assertFree(AttachedLiveness.judge(attachedFor(ALICE_RUN_1), member(ALICE, 61, 40)));
        assertFree(AttachedLiveness.judge(attachedFor(ALICE), member(ALICE_RUN_1, 61, 40)));
    }

    @Test
    void aLaterTenureOfTheSameMemberByTheSameHolderDoesNotKeepTheKey() {
        // Released and acquired again: the tenure the key lived by has ended.
        assertFree(AttachedLiveness.judge(attachedFor(ALICE), member(ALICE, 75, 75)));
    }

    @Test
    void aMemberRecordThatIsItselfAttachedKeepsNothing() {
        Lease attachedMember = new Lease(MEMBER, ALICE.holder(), Optional.empty(), Optional.empty(), new Fence(61),
                new Fence(40), T0, T1, TTL, Optional.of(new Attachment(new LeaseKey("other"), new Fence(3),
                        Optional.empty())));
        assertFree(AttachedLiveness.judge(attachedFor(ALICE), new KeyState.Held(attachedMember)));
    }

    @Test
    void theSameIncarnationKeepsItsKey() {
        assertInstanceOf(KeyState.Held.class, AttachedLiveness.judge(attachedFor(ALICE_RUN_1), member(ALICE_RUN_1, 41, 40)));
    }

    @Test
    void aKeyIsJudgedOnlyByItsOwnMember() {
        assertThrows(IllegalArgumentException.class,
                () -> AttachedLiveness.judge(attachedFor(ALICE), new KeyState.Free(new LeaseKey("elsewhere"), 0)));
    }

    @Test
    void plainLeasesAreUnaffected() {
        Lease plain = new Lease(SHARD, ALICE.holder(), new Fence(9), new Fence(9), T0, T1, TTL);
        assertEquals(Optional.empty(), plain.attachment());
        assertEquals(T1.plusMillis(TTL.millis()), plain.expiresAt());
        // A plain lease still renews; an attached key does not (its member does).
        assertInstanceOf(Decision.Apply.class, LeaseRules.renew(new KeyState.Held(plain), ALICE, new Fence(9),
                Optional.empty(), T1));
        KeyState attached = AttachedLiveness.judge(attachedFor(ALICE), member(ALICE, 61, 40));
        Object answer = assertInstanceOf(Decision.Answer.class,
                LeaseRules.renew(attached, ALICE, new Fence(52), Optional.empty(), T1)).outcome();
        assertEquals(Lost.Reason.ATTACHED, assertInstanceOf(Lost.class, answer).reason());
    }

    private static void assertFree(KeyState judged) {
        KeyState.Free free = assertInstanceOf(KeyState.Free.class, judged);
        assertEquals(SHARD, free.key());
        assertEquals(52, free.lastSequence(), "a new owner's compare-and-set expects the attached record's revision");
    }
}
