package io.dagnats.leases.protocol;

import static io.dagnats.leases.protocol.RequestExamples.KEY;
import static io.dagnats.leases.protocol.WireText.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dagnats.leases.domain.InvalidLeaseInput;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A forward request: its payload in base64 and its timeout, both ways, and the bounds on the timeout. */
class ForwardRequestTest {

    @ParameterizedTest(name = "forward {0}")
    @CsvSource(delimiter = '|', textBlock = """
            {"key":"k","payload":"aGk="}                        | hi | 5000
            {"key":"k","payload":""}                            |    | 5000
            {"key":"k","payload":"aGk=","timeout_ms":100}       | hi | 100
            {"key":"k","payload":"aGk=","timeout_ms":30000}     | hi | 30000
            {"key":"k","payload":"aGk=","holder":"x","revision":1,"ttl_ms":1500} | hi | 5000
            """)
    void aForwardBodyDecodesItsPayloadAndTimeout(String body, String payload, long timeoutMillis) {
        Request.Forward forward = Requests.forward(bytes(body));
        assertEquals(KEY, forward.key());
        assertArrayEquals(bytes(payload), forward.payload());
        assertEquals(Duration.ofMillis(timeoutMillis), forward.timeout());
    }

    @Test
    void aForwardEncodesItsPayloadAsBase64AndItsTimeout() {
        Request.Forward forward = new Request.Forward(KEY, bytes("hi"), Duration.ofMillis(2500));
        assertEquals("{\"key\":\"k\",\"payload\":\"aGk=\",\"timeout_ms\":2500}",
                new String(Requests.encode(forward), StandardCharsets.UTF_8));
        Request.Forward decoded = Requests.forward(Requests.encode(forward));
        assertArrayEquals(forward.payload(), decoded.payload());
        assertEquals(forward.timeout(), decoded.timeout());
    }

    @Test
    void aForwardTimeoutOutsideTheContractCannotBeBuilt() {
        assertThrows(InvalidLeaseInput.class, () -> new Request.Forward(KEY, new byte[0], Duration.ofMillis(99)));
        assertThrows(InvalidLeaseInput.class, () -> new Request.Forward(KEY, new byte[0], Duration.ofSeconds(31)));
    }
}
