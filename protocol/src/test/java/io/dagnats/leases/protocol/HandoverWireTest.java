package io.dagnats.leases.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.InvalidLeaseInput;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The handover and candidates subjects' bodies (ADR-042): what is refused, and what goes both ways. */
class HandoverWireTest {

    private static final LeaseKey KEY = new LeaseKey("orders");

    @Test
    void aCandidateCheckNamesTheIncarnationAndTheCheckItsGrantWillName() {
        CandidateCheck check = new CandidateCheck("i2", Optional.of("Zx81"));
        assertEquals("{\"incarnation\":\"i2\",\"check\":\"Zx81\"}", new String(check.encode(), StandardCharsets.UTF_8));
        assertEquals(Optional.of(check), CandidateCheck.decode(check.encode()));
        assertEquals(Optional.of(new CandidateCheck("i2", Optional.empty())),
                CandidateCheck.decode(bytes("{\"incarnation\":\"i2\"}")), "a dagnats before ADR-046 names no check");
        assertEquals(Optional.of(new CandidateCheck("i2", Optional.empty())),
                CandidateCheck.decode(bytes("{\"incarnation\":\"i2\",\"check\":7}")), "a check that is no string is none");
        for (String notOne : new String[] {"", "[]", "{\"check\":\"c\"}", "{\"incarnation\":3}", "{", "{\"incarnation\":\"i\"} x"}) {
            assertEquals(Optional.empty(), CandidateCheck.decode(bytes(notOne)), notOne);
        }
    }

    @Test
    void aHandoverRequestDecodesToTheSuccessorItNames() {
        Request.Handover handover = Requests.handover(bytes("""
                {"key":"orders","holder":"h1","incarnation":"i1","revision":7,"to_holder":"h2","to_incarnation":"i2"}"""));
        assertEquals(Claimant.of(new HolderId("h2"), new Incarnation("i2")), handover.successor());
        assertEquals(new Fence(7), handover.revision());
        assertEquals(Optional.empty(), handover.ttl());
        assertEquals(handover, Requests.handover(Requests.encode(handover)));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"key\":\"orders\",\"holder\":\"h1\",\"revision\":7,\"to_holder\":\"h2\"}",
            "{\"key\":\"orders\",\"holder\":\"h1\",\"revision\":7,\"to_incarnation\":\"i2\"}",
            "{\"key\":\"orders\",\"holder\":\"h1\",\"revision\":7,\"to_holder\":\"h1\",\"to_incarnation\":\"i2\"}",
            "{\"key\":\"orders\",\"holder\":\"h1\",\"to_holder\":\"h2\",\"to_incarnation\":\"i2\"}",
            "{\"key\":\"orders\",\"holder\":\"h1\",\"revision\":0,\"to_holder\":\"h2\",\"to_incarnation\":\"i2\"}",
            "{\"key\":\"orders\",\"holder\":\"h1\",\"revision\":7,\"to_holder\":\"h.2\",\"to_incarnation\":\"i2\"}",
            "{\"key\":\"orders\",\"holder\":\"h1\",\"revision\":7,\"to_holder\":2,\"to_incarnation\":\"i2\"}",
            "{\"key\":\"orders\",\"holder\":\"h1\",\"revision\":7,\"to_holder\":\"h2\",\"to_incarnation\":\"i2\",\"ttl_ms\":1500}"})
    void aBadHandoverIsInvalid(String body) {
        assertThrows(InvalidLeaseInput.class, () -> Requests.handover(bytes(body)));
    }

    @Test
    void onlyAHandoverNamesASuccessor() {
        InvalidLeaseInput refused = assertThrows(InvalidLeaseInput.class, () -> Requests.renew(bytes(
                "{\"key\":\"orders\",\"holder\":\"h1\",\"revision\":7,\"to_holder\":\"h2\"}")));
        assertTrue(refused.getMessage().contains("to_holder"), refused.getMessage());
    }

    @Test
    void aCandidatesRequestHasAWindowFrom10MsTo5s() {
        assertEquals(Request.Candidates.DEFAULT_WINDOW, Requests.candidates(bytes("{\"key\":\"orders\"}")).window());
        assertEquals(Duration.ofMillis(900),
                Requests.candidates(bytes("{\"key\":\"orders\",\"timeout_ms\":900}")).window());
        assertThrows(InvalidLeaseInput.class, () -> Requests.candidates(bytes("{\"key\":\"orders\",\"timeout_ms\":5001}")));
        assertThrows(InvalidLeaseInput.class, () -> Requests.candidates(bytes("{\"key\":\"orders\",\"holder\":1}")));
    }

    @Test
    void aCandidateAnswerGoesBothWaysAndGarbageIsNone() {
        Candidate candidate = new Candidate(KEY, new HolderId("h2"), new Incarnation("i2"), 5, "1.4.0",
                Duration.ofMillis(1200), Candidate.State.WAITING);
        assertEquals(Optional.of(candidate), Candidate.decode(candidate.encode()));
        assertEquals(Optional.empty(), Candidate.decode(bytes("not json")));
        assertEquals(Optional.empty(), Candidate.decode(bytes(
                "{\"key\":\"orders\",\"holder\":\"h2\",\"incarnation\":\"i2\",\"priority\":5,\"version\":\"1\","
                        + "\"waited_ms\":-1,\"state\":\"waiting\"}")));
        assertEquals(Optional.empty(), Candidate.decode(bytes(
                "{\"key\":\"orders\",\"holder\":\"h2\",\"incarnation\":\"i2\",\"priority\":5,\"version\":\"1\","
                        + "\"waited_ms\":1,\"state\":\"leader\"}")));
        assertEquals(Optional.empty(), Candidate.decode(new byte[0]));
    }

    @Test
    void theCandidatesReplyIsSortedByHolder() {
        Candidate b = new Candidate(KEY, new HolderId("b"), new Incarnation("i"), 0, "", Duration.ZERO,
                Candidate.State.OWNER);
        Candidate a = new Candidate(KEY, new HolderId("a"), new Incarnation("i"), 1, "2", Duration.ofSeconds(3),
                Candidate.State.WAITING);
        Answers.Candidates answer = AttachedAndHandoverReplies.decodeCandidates(Replies.candidates(KEY, List.of(b, a)));
        assertEquals(new Answers.Candidates(KEY, List.of(a, b)), answer);
    }

    @Test
    void aHandoverReplyIsHandedOverLostOrNoSuccessor() {
        Instant now = Instant.parse("2026-12-04T10:00:00Z");
        Lease successors = new Lease(KEY, new HolderId("h2"), Optional.of(new Incarnation("i2")), new Fence(9),
                new Fence(9), now, now, new LeaseTtl(15_000));
        Answers.Handover handed = AttachedAndHandoverReplies.decodeHandover(Replies.handedOver(successors));
        assertEquals(new Fence(9), assertInstanceOf(Answers.Handover.HandedOver.class, handed).lease().revision());
        assertInstanceOf(Answers.Handover.NoSuccessor.class,
                AttachedAndHandoverReplies.decodeHandover(Replies.error(ErrorKind.NO_SUCCESSOR, "nobody")));
        assertInstanceOf(Answers.Handover.Lost.class, AttachedAndHandoverReplies.decodeHandover(Replies.error(ErrorKind.LOST, "gone")));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
