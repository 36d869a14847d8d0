package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dagnats.leases.application.LeaseFailure;
import io.dagnats.leases.application.LeaseTelemetry;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.InvalidLeaseInput;
import io.dagnats.leases.protocol.Kinds;
import java.io.IOException;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What each failure a request can end in is answered with: the table the dispatcher relies on. */
class FailuresTest {

    static Stream<Arguments> failures() {
        LeaseFailure timedOut = new LeaseFailure(ErrorKind.UNAVAILABLE, "JetStream did not answer the read k in time");
        LeaseFailure corrupt = new LeaseFailure(ErrorKind.INTERNAL, "the record of k is corrupt");
        return Stream.of(
                Arguments.of(new InvalidLeaseInput("ttl_ms must be at least 1000"),
                        ErrorKind.INVALID, "ttl_ms must be at least 1000"),
                Arguments.of(new CompletionException(new InvalidLeaseInput("key is empty")),
                        ErrorKind.INVALID, "key is empty"),
                Arguments.of(timedOut, ErrorKind.UNAVAILABLE, timedOut.getMessage()),
                Arguments.of(new CompletionException(timedOut), ErrorKind.UNAVAILABLE, timedOut.getMessage()),
                Arguments.of(new LeaseFailure(ErrorKind.UNSUPPORTED, "leases unsupported: sealed"),
                        ErrorKind.UNSUPPORTED, "leases unsupported: sealed"),
                Arguments.of(corrupt, ErrorKind.INTERNAL, corrupt.getMessage()),
                Arguments.of(new IllegalStateException("a bug"),
                        ErrorKind.INTERNAL, "dagnats failed to answer this renew; see its log"),
                Arguments.of(new CompletionException(new NullPointerException()),
                        ErrorKind.INTERNAL, "dagnats failed to answer this renew; see its log"));
    }

    @ParameterizedTest
    @MethodSource("failures")
    void eachFailureIsAnsweredWithItsKindAndSentence(Throwable thrown, ErrorKind kind, String sentence)
            throws IOException {
        Answer answer = Failures.answer("renew", thrown);

        JsonNode reply = new ObjectMapper().readTree(answer.body());
        assertEquals(Kinds.wireName(kind), reply.path("kind").asText(), reply.toString());
        assertEquals(sentence, reply.path("error").asText(), reply.toString());
        assertEquals(LeaseTelemetry.Facts.Failed.bare(kind), answer.facts());
    }
}
