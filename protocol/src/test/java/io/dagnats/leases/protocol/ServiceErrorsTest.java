package io.dagnats.leases.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.ErrorKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The micro error headers of an error reply: their names, each kind's code, and a sentence made fit for a header. */
class ServiceErrorsTest {

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource(textBlock = """
            INVALID,           400
            FORBIDDEN,         403
            NO_OWNER,          404
            LOST,              409
            OWNER_REJECTED,    409
            REPLY_TOO_LARGE,   413
            INTERNAL,          500
            UNSUPPORTED,       501
            OWNER_UNAVAILABLE, 502
            UNAVAILABLE,       503
            OWNER_TIMEOUT,     504
            """)
    void eachKindHasAnHttpLikeCode(ErrorKind kind, int code) {
        assertEquals(code, ServiceErrors.code(kind));
    }

    @Test
    void theHeadersAreMicros() {
        assertEquals("Nats-Service-Error", ServiceErrors.ERROR);
        assertEquals("Nats-Service-Error-Code", ServiceErrors.CODE);
    }

    @Test
    void aPlainSentenceIsTheHeaderValueAsItIs() {
        assertEquals("lease k is lost: revision 41 is not the current fence 42",
                ServiceErrors.headerValue("lease k is lost: revision 41 is not the current fence 42"));
    }

    @Test
    void whatAHeaderCannotHoldBecomesAQuestionMark() {
        assertEquals("unknown field \"cl?\" ??? x", ServiceErrors.headerValue("unknown field \"cl\u00e9\" \r\n\t x"));
    }

    @Test
    void aLongSentenceIsCutInTheHeader() {
        String value = ServiceErrors.headerValue("x".repeat(5000));
        assertEquals(ServiceErrors.MAX_HEADER_SENTENCE, value.length());
        assertTrue(value.endsWith("x..."), value);
    }
}
