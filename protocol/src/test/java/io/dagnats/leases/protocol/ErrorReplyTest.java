package io.dagnats.leases.protocol;

import static io.dagnats.leases.protocol.WireText.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.ErrorKind;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Error replies as a client reads them: per operation, an answer (a value) or a failure (an
 * exception of its kind); and a reply that breaks the contract, always an internal failure.
 */
class ErrorReplyTest {

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

    private static Function<byte[], ?> decoder(Operation operation) {
        return switch (operation) {
            case ACQUIRE -> Replies::decodeAcquire;
            case RENEW -> Replies::decodeRenew;
            case RELEASE -> Replies::decodeRelease;
            case OWNER -> Replies::decodeOwner;
            case FORWARD -> Replies::decodeForward;
            case LIST -> Replies::decodeList;
            case REVOKE -> Replies::decodeRevoke;
            case HANDOVER -> AttachedAndHandoverReplies::decodeHandover;
            case CANDIDATES -> AttachedAndHandoverReplies::decodeCandidates;
            case ATTACH -> AttachedAndHandoverReplies::decodeAttach;
            case DETACH -> AttachedAndHandoverReplies::decodeDetach;
            case MOVE -> AttachedAndHandoverReplies::decodeMove;
        };
    }
}
