package io.dagnats.leases.domain;

import static io.dagnats.leases.domain.LeaseRuleExamples.ALICE;
import static io.dagnats.leases.domain.LeaseRuleExamples.BOB;
import static io.dagnats.leases.domain.LeaseRuleExamples.T0;
import static io.dagnats.leases.domain.LeaseRuleExamples.T1;
import static io.dagnats.leases.domain.LeaseRuleExamples.TTL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** attach, detach and move decisions (ADR-043). */
class AttachRulesTest {

    private static final LeaseKey SHARD = new LeaseKey("orders-shard-7");
    private static final LeaseKey MEMBER = new LeaseKey("orders-member-alice");
    private static final Attachment TO_ALICE = new Attachment(MEMBER, new Fence(40), Optional.empty());
    private static final Lease ALICE_MEMBER = new Lease(MEMBER, ALICE.holder(), new Fence(61), new Fence(40), T0, T1, TTL);

    @Test
    void aMemberLeaseIsLiveOnlyForItsHolderInTheTenureNamed() {
        KeyState held = new KeyState.Held(ALICE_MEMBER);
        assertEquals(Optional.of(ALICE_MEMBER), AttachRules.liveMember(held, ALICE, new Fence(40)));
        assertTrue(AttachRules.liveMember(held, ALICE, new Fence(61)).isEmpty(), "a revision is not the tenure");
        assertTrue(AttachRules.liveMember(held, BOB, new Fence(40)).isEmpty());
        assertTrue(AttachRules.liveMember(new KeyState.Free(MEMBER, 62), ALICE, new Fence(40)).isEmpty());
    }

    @Test
    void aFreeKeyIsAttachedInOneCompareAndSetWithoutATtl() {
        LeaseWrite.Put put = (LeaseWrite.Put) assertInstanceOf(Decision.Apply.class,
                AttachRules.attach(new KeyState.Free(SHARD, 33), ALICE_MEMBER, ALICE, TO_ALICE, T1)).write();
        assertEquals(33, put.expectedSequence());
        assertEquals(LeaseEvent.ATTACHED, put.event());
        assertEquals(Optional.of(TO_ALICE), put.attachment());
        Lease granted = put.leaseAt(new Fence(70));
        assertEquals(new Fence(70), granted.tenure());
        assertEquals(ALICE_MEMBER.expiresAt(), granted.expiresAt());
    }

    @Test
    void attachingAgainToTheSameTenureIsGrantedUnchanged() {
        Lease attached = new Lease(SHARD, ALICE.holder(), Optional.empty(), Optional.empty(), new Fence(70),
                new Fence(70), T1, T1, TTL, Optional.of(TO_ALICE));
        Object answer = assertInstanceOf(Decision.Answer.class,
                AttachRules.attach(new KeyState.Held(attached), ALICE_MEMBER, ALICE, TO_ALICE, T1)).outcome();
        assertEquals(new Attaching.Granted(attached), answer);
    }

    @Test
    void aKeyHeldOtherwiseIsHeldByOther() {
        Lease plain = new Lease(SHARD, ALICE.holder(), new Fence(9), new Fence(9), T0, T1, TTL);
        assertInstanceOf(Attaching.HeldByOther.class, assertInstanceOf(Decision.Answer.class,
                AttachRules.attach(new KeyState.Held(plain), ALICE_MEMBER, ALICE, TO_ALICE, T1)).outcome());
        Lease bobs = new Lease(SHARD, BOB.holder(), Optional.empty(), Optional.empty(), new Fence(70),
                new Fence(70), T1, T1, TTL, Optional.of(new Attachment(new LeaseKey("orders-member-bob"),
                        new Fence(12), Optional.empty())));
        assertInstanceOf(Attaching.HeldByOther.class, assertInstanceOf(Decision.Answer.class,
                AttachRules.attach(new KeyState.Held(bobs), ALICE_MEMBER, ALICE, TO_ALICE, T1)).outcome());
    }

    @Test
    void moveWritesTheSuccessorWithTheMoverAsFromAndDetachWritesTheReleaseForm() {
        Lease attached = new Lease(SHARD, ALICE.holder(), Optional.empty(), Optional.empty(), new Fence(70),
                new Fence(70), T1, T1, TTL, Optional.of(TO_ALICE));
        Lease bobMember = new Lease(new LeaseKey("orders-member-bob"), BOB.holder(), new Fence(80), new Fence(12), T0,
                T1, TTL);
        Attachment toBob = new Attachment(bobMember.key(), new Fence(12), Optional.empty());
        LeaseWrite.Put moved = (LeaseWrite.Put) assertInstanceOf(Decision.Apply.class, AttachRules.move(
                new KeyState.Held(attached), ALICE, new Fence(70), bobMember, toBob, T1)).write();
        assertEquals(LeaseEvent.MOVED, moved.event());
        assertEquals(BOB, moved.claimant());
        assertEquals(Optional.of(ALICE.holder()), moved.from());
        assertEquals(70, moved.expectedSequence());
        Object stale = assertInstanceOf(Decision.Answer.class, AttachRules.move(new KeyState.Held(attached), ALICE,
                new Fence(69), bobMember, toBob, T1)).outcome();
        assertEquals(Lost.Reason.STALE_FENCE, assertInstanceOf(Lost.class, stale).reason());
        LeaseWrite detach = assertInstanceOf(Decision.Apply.class,
                AttachRules.detach(new KeyState.Held(attached), ALICE, new Fence(70))).write();
        assertEquals(LeaseEvent.RELEASED, detach.event());
    }

    @Test
    void eachCallAtAFenceActsOnOneFormAndIsLostOnTheOther() {
        Lease attached = new Lease(SHARD, ALICE.holder(), Optional.empty(), Optional.empty(), new Fence(70),
                new Fence(70), T1, T1, TTL, Optional.of(TO_ALICE));
        Lease plain = new Lease(SHARD, ALICE.holder(), new Fence(9), new Fence(9), T0, T1, TTL);
        Lease bobMember = new Lease(new LeaseKey("orders-member-bob"), BOB.holder(), new Fence(80), new Fence(12), T0,
                T1, TTL);
        Attachment toBob = new Attachment(bobMember.key(), new Fence(12), Optional.empty());
        String attachedTo = "lease orders-shard-7 is lost: it is attached to member lease " + MEMBER + ": ";
        assertLost(Lost.Reason.ATTACHED, attachedTo + "renew the member lease instead, or detach the key",
                LeaseRules.renew(new KeyState.Held(attached), ALICE, new Fence(70), Optional.empty(), T1));
        assertLost(Lost.Reason.ATTACHED, attachedTo + "move it to another member instead",
                LeaseRules.handover(new KeyState.Held(attached), ALICE, new Fence(70), BOB, Optional.empty(), Optional.empty(), T1));
        String plainLease = "lease orders-shard-7 is lost: it is a plain lease, not a key attached to a member lease:"
                + " release it";
        assertLost(Lost.Reason.NOT_HELD, plainLease, AttachRules.detach(new KeyState.Held(plain), ALICE, new Fence(9)));
        assertLost(Lost.Reason.NOT_HELD, plainLease,
                AttachRules.move(new KeyState.Held(plain), ALICE, new Fence(9), bobMember, toBob, T1));
        // The fence is checked first, on either form.
        assertLost(Lost.Reason.STALE_FENCE, "lease orders-shard-7 is lost: revision 8 is not the current fence 9",
                AttachRules.detach(new KeyState.Held(plain), ALICE, new Fence(8)));
        assertLost(Lost.Reason.HELD_BY_OTHER, "lease orders-shard-7 is lost: it is held by another holder",
                LeaseRules.renew(new KeyState.Held(attached), BOB, new Fence(70), Optional.empty(), T1));
    }

    private static void assertLost(Lost.Reason reason, String sentence, Decision<?> decision) {
        Lost lost = assertInstanceOf(Lost.class, assertInstanceOf(Decision.Answer.class, decision).outcome());
        assertEquals(reason, lost.reason());
        assertEquals(sentence, lost.sentence());
    }
}
