package io.dagnats.leases.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.Release;
import io.dagnats.leases.domain.Revocation;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Reply bodies as the service writes them, and as a client reads them back. */
class RepliesTest {

    private static final LeaseKey KEY = new LeaseKey("notify-leader");
    private static final HolderId HOLDER = new HolderId("notify-7f3a");
    private static final Lease LEASE = new Lease(KEY, HOLDER, new Fence(42), new Fence(40),
            Instant.parse("2026-10-18T12:00:00Z"), Instant.parse("2026-10-18T12:00:00.250Z"), LeaseTtl.ofSeconds(15));
    private static final String VIEW = "\"held\":true,\"key\":\"notify-leader\",\"holder\":\"notify-7f3a\",\"revision\":42,\"tenure\":40,"
            + "\"acquired_at\":\"2026-10-18T12:00:00Z\",\"expires_at\":\"2026-10-18T12:00:15.250Z\",\"ttl_ms\":15000";
    private static final LeaseView LEASE_VIEW = new LeaseView(KEY, HOLDER, Optional.empty(), new Fence(42),
            Optional.of(new Fence(40)), Instant.parse("2026-10-18T12:00:00Z"), Instant.parse("2026-10-18T12:00:15.250Z"), LeaseTtl.ofSeconds(15));

    private static String text(byte[] body) {
        return new String(body, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String body) {
        return body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    }

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

    /** Which kinds are answers (values) and which are failures, per operation. */
    @ParameterizedTest(name = "{0} answered {1}: {2}")
    @CsvSource(textBlock = """
            ACQUIRE, INVALID,            failure
            ACQUIRE, UNSUPPORTED,        failure
            ACQUIRE, UNAVAILABLE,        failure
            ACQUIRE, INTERNAL,           failure
            ACQUIRE, LOST,               failure
            RENEW,   LOST,               answer
            RENEW,   UNAVAILABLE,        failure
            RENEW,   INVALID,            failure
            RELEASE, LOST,               answer
            RELEASE, INTERNAL,           failure
            OWNER,   UNAVAILABLE,        failure
            OWNER,   LOST,               failure
            FORWARD, NO_OWNER,           answer
            FORWARD, OWNER_UNAVAILABLE,  answer
            FORWARD, OWNER_REJECTED,     answer
            FORWARD, OWNER_TIMEOUT,      answer
            FORWARD, REPLY_TOO_LARGE,    answer
            FORWARD, INVALID,            failure
            FORWARD, UNSUPPORTED,        failure
            FORWARD, LOST,               failure
            LIST,    INVALID,            failure
            LIST,    UNSUPPORTED,        failure
            LIST,    UNAVAILABLE,        failure
            REVOKE,  INVALID,            failure
            REVOKE,  LOST,               failure
            REVOKE,  UNSUPPORTED,        failure
            REVOKE,  UNAVAILABLE,        failure
            """)
    void anDagnatsExceptionIsAnAnswerOrAFailureByOperation(Operation operation, ErrorKind kind, String expected) {
        byte[] body = Replies.error(kind, "because");
        if (expected.equals("answer")) {
            decoder(operation).apply(body);
        } else {
            DagnatsException failure = assertThrows(DagnatsException.class, () -> decoder(operation).apply(body));
            assertEquals(kind, failure.kind());
            assertEquals(Kinds.wireName(kind) + ": because", failure.getMessage());
        }
    }

    /** A reply that breaks the contract is an internal failure, never another exception. */
    @ParameterizedTest(name = "{0} [{1}]")
    @CsvSource(delimiter = '|', nullValues = "<empty>", textBlock = """
            ACQUIRE | <empty>
            ACQUIRE | not json
            ACQUIRE | []
            ACQUIRE | {"granted":true}
            ACQUIRE | {"granted":"yes","held":true,"key":"k","holder":"h","revision":1,"acquired_at":"2026-10-18T12:00:00Z","expires_at":"2026-10-18T12:00:15Z","ttl_ms":15000}
            ACQUIRE | {"held":true,"key":"k","holder":"h","revision":1,"acquired_at":"2026-10-18T12:00:00Z","expires_at":"2026-10-18T12:00:15Z","ttl_ms":15000}
            ACQUIRE | {"granted":true,"held":true,"key":"a.b","holder":"h","revision":1,"acquired_at":"2026-10-18T12:00:00Z","expires_at":"2026-10-18T12:00:15Z","ttl_ms":15000}
            ACQUIRE | {"granted":true,"held":true,"key":"k","holder":"h","revision":0,"acquired_at":"2026-10-18T12:00:00Z","expires_at":"2026-10-18T12:00:15Z","ttl_ms":15000}
            ACQUIRE | {"granted":true,"held":true,"key":"k","holder":"h","revision":1,"acquired_at":"noon","expires_at":"2026-10-18T12:00:15Z","ttl_ms":15000}
            ACQUIRE | {"granted":true,"held":true,"key":"k","holder":"h","revision":1,"acquired_at":"2026-10-18T12:00:00Z","expires_at":"2026-10-18T12:00:15Z","ttl_ms":1500}
            ACQUIRE | {"granted":true,"held":true,"key":"k","holder":"h","revision":1,"acquired_at":"2026-10-18T12:00:00Z","expires_at":"2026-10-18T12:00:15Z"}
            ACQUIRE | {"granted":true,"granted":true}
            ACQUIRE | {"error":"x","kind":"no_such_kind"}
            RELEASE | {"released":true,"key":"k","holder":"h"}
            OWNER   | {"key":"k"}
            OWNER   | {"held":false}
            FORWARD | {"key":"k","holder":"h","revision":1,"payload":"!!"}
            FORWARD | {"key":"k","holder":"h","revision":1}
            LIST    | {}
            LIST    | {"leases":{}}
            LIST    | {"leases":[1]}
            LIST    | {"leases":[{"held":true,"key":"k"}]}
            LIST    | {"leases":[],"next_cursor":5}
            REVOKE  | {"key":"k"}
            REVOKE  | {"revoked":true,"key":"k","holder":"h","revision":9}
            REVOKE  | {"revoked":true,"key":"k","holder":"h","revision":9,"revoked_revision":0}
            REVOKE  | {"revoked":false,"key":"k"}
            REVOKE  | {"revoked":false,"held":true,"key":"k","holder":"h","revision":1}
            """)
    void aReplyThatBreaksTheContractIsInternal(Operation operation, String body) {
        DagnatsException failure = assertThrows(DagnatsException.class, () -> decoder(operation).apply(bytes(body)));
        assertEquals(ErrorKind.INTERNAL, failure.kind());
        assertTrue(failure.getMessage().startsWith("internal: dagnats answered " + operation.endpointName()),
                failure.getMessage());
    }

    @Test
    void fieldsANewerServiceAddsAreSkipped() {
        assertEquals(new Answers.Owner.Free(KEY), Replies.decodeOwner(
                bytes("{\"held\":false,\"key\":\"notify-leader\",\"since\":{\"nested\":[1,2]},\"note\":null}")));
    }

    private static Function<byte[], ?> decoder(Operation operation) {
        return switch (operation) {
            case ACQUIRE -> Replies::decodeAcquire;
            case RENEW -> Replies::decodeRenew;
            case RELEASE -> Replies::decodeRelease;
            case OWNER -> Replies::decodeOwner;
            case FORWARD -> Replies::decodeForward;
            case LIST -> Replies::decodeList;
            case REVOKE -> Replies::decodeRevoke;
        };
    }

    @Test
    void theServiceWritesAListPage() {
        assertEquals("{\"leases\":[{" + VIEW + "},{" + VIEW + "}],\"next_cursor\":\"43\"}",
                text(Replies.list(List.of(LEASE, LEASE), Optional.of("43"))));
        assertEquals("{\"leases\":[]}", text(Replies.list(List.of(), Optional.empty())));
    }

    @Test
    void aClientReadsBackAListPage() {
        assertEquals(new Answers.Listing(List.of(LEASE_VIEW, LEASE_VIEW), Optional.of("43")),
                Replies.decodeList(Replies.list(List.of(LEASE, LEASE), Optional.of("43"))));
        assertEquals(new Answers.Listing(List.of(), Optional.empty()),
                Replies.decodeList(Replies.list(List.of(), Optional.empty())));
        // An empty page that still names a cursor: the walk is not over.
        assertEquals(new Answers.Listing(List.of(), Optional.of("99")),
                Replies.decodeList(Replies.list(List.of(), Optional.of("99"))));
    }

    @Test
    void fieldsANewerServiceAddsToAListedLeaseAreSkipped() {
        String lease = "{\"granted\":true," + VIEW + ",\"extra\":{\"a\":[1]}}";
        assertEquals(new Answers.Listing(List.of(LEASE_VIEW), Optional.empty()),
                Replies.decodeList(bytes("{\"leases\":[" + lease + "],\"total\":1}")));
    }

    @Test
    void theServiceWritesEachRevokeReply() {
        assertEquals("{\"revoked\":true,\"key\":\"notify-leader\",\"holder\":\"notify-7f3a\",\"revision\":44,"
                        + "\"revoked_revision\":42}",
                text(Replies.revoked(new Revocation.Revoked(KEY, HOLDER, new Fence(44), new Fence(42)))));
        assertEquals("{\"revoked\":false,\"held\":false,\"key\":\"notify-leader\"}",
                text(Replies.revoked(new Revocation.Free(KEY))));
        assertEquals("{\"revoked\":false," + VIEW + "}", text(Replies.revoked(new Revocation.NotCurrent(LEASE))));
    }

    @Test
    void aClientReadsBackEachRevokeReply() {
        assertEquals(new Answers.Revoke.Revoked(KEY, HOLDER, new Fence(44), new Fence(42)),
                Replies.decodeRevoke(Replies.revoked(new Revocation.Revoked(KEY, HOLDER, new Fence(44), new Fence(42)))));
        assertEquals(new Answers.Revoke.Free(KEY), Replies.decodeRevoke(Replies.revoked(new Revocation.Free(KEY))));
        assertEquals(new Answers.Revoke.NotCurrent(LEASE_VIEW),
                Replies.decodeRevoke(Replies.revoked(new Revocation.NotCurrent(LEASE))));
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
