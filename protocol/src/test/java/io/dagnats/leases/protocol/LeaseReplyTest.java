package io.dagnats.leases.protocol;

import static io.dagnats.leases.protocol.ReplyExamples.HOLDER;
import static io.dagnats.leases.protocol.ReplyExamples.KEY;
import static io.dagnats.leases.protocol.ReplyExamples.LEASE;
import static io.dagnats.leases.protocol.ReplyExamples.LEASE_VIEW;
import static io.dagnats.leases.protocol.ReplyExamples.VIEW;
import static io.dagnats.leases.protocol.WireText.bytes;
import static io.dagnats.leases.protocol.WireText.text;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.Release;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The lease operations' replies as the service writes them, and as a client reads them back. */
class LeaseReplyTest {

    @Test
    void theServiceWritesEachReplyOfTheContract() {
        assertEquals("{\"granted\":true," + VIEW + "}", text(Replies.lease(LEASE, true)));
        assertEquals("{\"granted\":false," + VIEW + "}", text(Replies.lease(LEASE, false)));
        assertEquals("{" + VIEW + "}", text(Replies.owner(new KeyState.Held(LEASE))));
        assertEquals("{\"held\":false,\"key\":\"notify-leader\"}", text(Replies.owner(new KeyState.Free(KEY, 9))));
        assertEquals("{\"released\":true,\"key\":\"notify-leader\",\"holder\":\"notify-7f3a\",\"revision\":44}",
                text(Replies.released(new Release.Released(KEY, HOLDER, new Fence(44)))));
        assertEquals("{\"key\":\"notify-leader\",\"holder\":\"notify-7f3a\",\"revision\":42,\"payload\":\"aGk=\"}",
                text(Replies.forwarded(LEASE, bytes("hi"))));
        assertEquals("{\"error\":\"too slow\",\"kind\":\"owner_timeout\",\"holder\":\"notify-7f3a\",\"revision\":42}",
                text(Replies.forwardError(ErrorKind.OWNER_TIMEOUT, "too slow", LEASE)));
        assertEquals("{\"error\":\"lease notify-leader is lost\",\"kind\":\"lost\"}",
                text(Replies.error(ErrorKind.LOST, "lease notify-leader is lost")));
    }

    @Test
    void aSentenceIsEscapedAsJson() {
        assertEquals("{\"error\":\"a \\\"quoted\\\"\\nline\",\"kind\":\"invalid\"}",
                text(Replies.error(ErrorKind.INVALID, "a \"quoted\"\nline")));
    }

    @Test
    void aClientReadsBackWhatTheServiceWrote() {
        assertEquals(new Answers.Acquire.Granted(LEASE_VIEW), Replies.decodeAcquire(Replies.lease(LEASE, true)));
        assertEquals(new Answers.Acquire.HeldByOther(LEASE_VIEW), Replies.decodeAcquire(Replies.lease(LEASE, false)));
        assertEquals(new Answers.Renew.Renewed(LEASE_VIEW), Replies.decodeRenew(Replies.lease(LEASE, true)));
        assertEquals(new Answers.Owner.Held(LEASE_VIEW), Replies.decodeOwner(Replies.owner(new KeyState.Held(LEASE))));
        assertEquals(new Answers.Owner.Free(KEY), Replies.decodeOwner(Replies.owner(new KeyState.Free(KEY, 0))));
        assertEquals(new Answers.Release.Released(KEY, HOLDER, new Fence(44)),
                Replies.decodeRelease(Replies.released(new Release.Released(KEY, HOLDER, new Fence(44)))));

        Answers.Forward.Answered answered = assertInstanceOf(Answers.Forward.Answered.class,
                Replies.decodeForward(Replies.forwarded(LEASE, bytes("hi"))));
        assertEquals(HOLDER, answered.holder());
        assertEquals(new Fence(42), answered.revision());
        assertArrayEquals(bytes("hi"), answered.reply());
    }

    @Test
    void lostIsAnAnswerOfRenewAndRelease() {
        byte[] lost = Replies.error(ErrorKind.LOST, "lease k is lost: it expired");
        assertEquals(new Answers.Renew.Lost("lease k is lost: it expired"), Replies.decodeRenew(lost));
        assertEquals(new Answers.Release.Lost("lease k is lost: it expired"), Replies.decodeRelease(lost));
    }

    @Test
    void aForwardThatWasNotAnsweredNamesTheOwnerLastTried() {
        assertEquals(new Answers.Forward.NotAnswered(ErrorKind.OWNER_TIMEOUT, "too slow",
                        Optional.of(HOLDER), Optional.of(new Fence(42))),
                Replies.decodeForward(Replies.forwardError(ErrorKind.OWNER_TIMEOUT, "too slow", LEASE)));
        assertEquals(new Answers.Forward.NotAnswered(ErrorKind.NO_OWNER, "nobody holds k", Optional.empty(),
                        Optional.empty()),
                Replies.decodeForward(Replies.error(ErrorKind.NO_OWNER, "nobody holds k")));
    }

    @Test
    void fieldsANewerServiceAddsAreSkipped() {
        assertEquals(new Answers.Owner.Free(KEY), Replies.decodeOwner(
                bytes("{\"held\":false,\"key\":\"notify-leader\",\"since\":{\"nested\":[1,2]},\"note\":null}")));
    }

    @Test
    void aLeaseTakenUnderAnIncarnationNamesItInItsViewAndAClientReadsItBack() {
        Lease lease = new Lease(KEY, HOLDER, Optional.of(new Incarnation("run-7")), new Fence(42), new Fence(40),
                Instant.parse("2026-10-18T12:00:00Z"), Instant.parse("2026-10-18T12:00:00.250Z"), LeaseTtl.ofSeconds(15));

        assertEquals("{\"granted\":true,\"held\":true,\"key\":\"notify-leader\",\"holder\":\"notify-7f3a\","
                + "\"incarnation\":\"run-7\",\"revision\":42,\"tenure\":40,\"acquired_at\":\"2026-10-18T12:00:00Z\","
                + "\"expires_at\":\"2026-10-18T12:00:15.250Z\",\"ttl_ms\":15000}", text(Replies.lease(lease, true)));
        LeaseView view = Replies.decodeAcquire(Replies.lease(lease, true)).lease();
        assertEquals(Claimant.of(HOLDER, new Incarnation("run-7")), view.claimant());
        assertEquals(Optional.of(new Fence(40)), view.tenure());
    }
}
