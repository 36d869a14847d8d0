package io.dagnats.leases.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.InvalidLeaseInput;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.RevokeReason;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The contract's request table, row by row: what each operation accepts and what is {@code invalid}. */
class RequestsTest {

    private static final LeaseKey KEY = new LeaseKey("k");
    private static final HolderId HOLDER = new HolderId("h");
    private static final Incarnation RUN = new Incarnation("run-1");

    private static byte[] bytes(String body) {
        return body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    }

    static Stream<Arguments> validBodies() {
        return Stream.of(
                Arguments.of(Operation.ACQUIRE, "{\"key\":\"k\",\"holder\":\"h\",\"ttl_ms\":15000}",
                        new Request.Acquire(KEY, HOLDER, LeaseTtl.ofSeconds(15))),
                Arguments.of(Operation.ACQUIRE, "{\"ttl_ms\":1000,\"holder\":\"h\",\"key\":\"k\"}",
                        new Request.Acquire(KEY, HOLDER, LeaseTtl.ofSeconds(1))),
                Arguments.of(Operation.ACQUIRE, " {\"key\":\"k\",\"holder\":\"h\",\"ttl_ms\":600000} \n",
                        new Request.Acquire(KEY, HOLDER, LeaseTtl.ofSeconds(600))),
                // Fields another operation needs are accepted and ignored when well typed.
                Arguments.of(Operation.ACQUIRE, "{\"key\":\"k\",\"holder\":\"h\",\"ttl_ms\":15000,\"revision\":3,"
                                + "\"payload\":\"\",\"timeout_ms\":1}",
                        new Request.Acquire(KEY, HOLDER, LeaseTtl.ofSeconds(15))),
                Arguments.of(Operation.RENEW, "{\"key\":\"k\",\"holder\":\"h\",\"revision\":42}",
                        new Request.Renew(KEY, HOLDER, new Fence(42), Optional.empty())),
                Arguments.of(Operation.RENEW, "{\"key\":\"k\",\"holder\":\"h\",\"revision\":42,\"ttl_ms\":60000}",
                        new Request.Renew(KEY, HOLDER, new Fence(42), Optional.of(LeaseTtl.ofSeconds(60)))),
                Arguments.of(Operation.RENEW, "{\"key\":\"k\",\"holder\":\"h\",\"revision\":9223372036854775807}",
                        new Request.Renew(KEY, HOLDER, new Fence(Long.MAX_VALUE), Optional.empty())),
                Arguments.of(Operation.RELEASE, "{\"key\":\"k\",\"holder\":\"h\",\"revision\":1}",
                        new Request.Release(KEY, HOLDER, new Fence(1))),
                // An incarnation on the three calls a holder makes about its own lease...
                Arguments.of(Operation.ACQUIRE, "{\"key\":\"k\",\"holder\":\"h\",\"incarnation\":\"run-1\",\"ttl_ms\":15000}",
                        new Request.Acquire(KEY, HOLDER, Optional.of(RUN), LeaseTtl.ofSeconds(15))),
                Arguments.of(Operation.RENEW, "{\"key\":\"k\",\"holder\":\"h\",\"incarnation\":\"run-1\",\"revision\":42}",
                        new Request.Renew(KEY, HOLDER, Optional.of(RUN), new Fence(42), Optional.empty())),
                Arguments.of(Operation.RELEASE, "{\"key\":\"k\",\"holder\":\"h\",\"incarnation\":\"run-1\",\"revision\":7}",
                        new Request.Release(KEY, HOLDER, Optional.of(RUN), new Fence(7))),
                // ...and accepted and ignored on the others, like every field of the table.
                Arguments.of(Operation.OWNER, "{\"key\":\"k\",\"incarnation\":\"run-1\"}", new Request.Owner(KEY)),
                // The guide's own Go example sends ttl_ms on release.
                Arguments.of(Operation.RELEASE, "{\"key\":\"k\",\"holder\":\"h\",\"revision\":7,\"ttl_ms\":15000}",
                        new Request.Release(KEY, HOLDER, new Fence(7))),
                // Ignored fields are not judged by the rules of the operation that needs them.
                Arguments.of(Operation.RELEASE, "{\"key\":\"k\",\"holder\":\"h\",\"revision\":7,\"ttl_ms\":1500}",
                        new Request.Release(KEY, HOLDER, new Fence(7))),
                Arguments.of(Operation.OWNER, "{\"key\":\"k\"}", new Request.Owner(KEY)),
                Arguments.of(Operation.OWNER, "{\"key\":\"k\",\"holder\":\"someone\",\"revision\":5}",
                        new Request.Owner(KEY)),
                Arguments.of(Operation.OWNER, "{\"key\":\"" + "k".repeat(128) + "\"}",
                        new Request.Owner(new LeaseKey("k".repeat(128)))),
                Arguments.of(Operation.OWNER, "{\"key\":\"A-z_0-9\"}", new Request.Owner(new LeaseKey("A-z_0-9"))),
                Arguments.of(Operation.REVOKE, "{\"key\":\"k\",\"reason\":\"stuck after a GC pause\"}",
                        new Request.Revoke(KEY, new RevokeReason("stuck after a GC pause"), Optional.empty())),
                Arguments.of(Operation.REVOKE, "{\"key\":\"k\",\"reason\":\"r\",\"revision\":42}",
                        new Request.Revoke(KEY, new RevokeReason("r"), Optional.of(new Fence(42)))),
                // The lease table's other fields are accepted and ignored on revoke too.
                Arguments.of(Operation.REVOKE, "{\"key\":\"k\",\"reason\":\"r\",\"holder\":\"h\",\"ttl_ms\":1500,"
                                + "\"payload\":\"\",\"timeout_ms\":1,\"prefix\":\"\",\"page_size\":0,\"cursor\":\"\"}",
                        new Request.Revoke(KEY, new RevokeReason("r"), Optional.empty())),
                Arguments.of(Operation.REVOKE, "{\"key\":\"k\",\"reason\":\"" + "~ !".repeat(66) + "x\"}",
                        new Request.Revoke(KEY, new RevokeReason("~ !".repeat(66) + "x"), Optional.empty())),
                // ... and the new fields on the five lease operations, as the table's rule says.
                Arguments.of(Operation.OWNER, "{\"key\":\"k\",\"reason\":\" \",\"prefix\":\"a.b\",\"page_size\":0}",
                        new Request.Owner(KEY)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("validBodies")
    void aValidBodyDecodesToItsRequest(Operation operation, String body, Request expected) {
        assertEquals(expected, Requests.decode(operation, bytes(body)));
    }

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

    /** Every way a body breaks the contract, and the sentence that says so. */
    @ParameterizedTest(name = "{0} [{1}]: {2}")
    @CsvSource(delimiter = '|', nullValues = "<empty>", textBlock = """
            # the body as a whole
            ACQUIRE | <empty>                                                  | the request body is empty
            ACQUIRE | null                                                     | must be a JSON object
            ACQUIRE | []                                                       | must be a JSON object
            ACQUIRE | "k"                                                      | must be a JSON object
            ACQUIRE | 42                                                       | must be a JSON object
            ACQUIRE | {                                                        | not valid JSON
            ACQUIRE | {"key":"k"                                               | not valid JSON
            ACQUIRE | {"key":"k",}                                             | not valid JSON
            ACQUIRE | {'key':'k'}                                              | not valid JSON
            ACQUIRE | {"key":"k","holder":"h","ttl_ms":15000}{}                | content after its JSON object
            ACQUIRE | {"key":"k","holder":"h","ttl_ms":15000} x                | not valid JSON
            ACQUIRE | [[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]                 | the request body
            # unknown and duplicate fields
            ACQUIRE | {"key":"k","holder":"h","ttl_ms":15000,"Key":"k"}        | unknown field "Key"
            ACQUIRE | {"key":"k","holder":"h","ttl_ms":15000,"lease":{}}       | unknown field "lease"
            OWNER   | {"key":"k","extra":1}                                    | unknown field "extra"
            ACQUIRE | {"key":"k","holder":"h","ttl_ms":15000,"granted":true}   | unknown field "granted"
            OWNER   | {"key":"k","kind":"lost"}                                | unknown field "kind"
            ACQUIRE | {"key":"k","key":"k","holder":"h","ttl_ms":15000}        | duplicate field
            RENEW   | {"key":"k","holder":"h","revision":1,"revision":1}       | duplicate field
            # missing fields an operation needs
            ACQUIRE | {"holder":"h","ttl_ms":15000}                            | key is required
            ACQUIRE | {"key":"k","ttl_ms":15000}                               | holder is required
            ACQUIRE | {"key":"k","holder":"h"}                                 | ttl_ms is required
            RENEW   | {"key":"k","holder":"h"}                                 | revision is required
            RELEASE | {"key":"k","revision":4}                                 | holder is required
            RELEASE | {"key":"k","holder":"h"}                                 | revision is required
            OWNER   | {}                                                       | key is required
            FORWARD | {"key":"k"}                                              | payload is required
            # strings where strings belong, on every operation
            ACQUIRE | {"key":5,"holder":"h","ttl_ms":15000}                    | key must be a string
            ACQUIRE | {"key":"k","holder":true,"ttl_ms":15000}                 | holder must be a string
            ACQUIRE | {"key":null,"holder":"h","ttl_ms":15000}                 | key must be a string
            OWNER   | {"key":"k","holder":7}                                   | holder must be a string
            OWNER   | {"key":"k","payload":[]}                                 | payload must be a string
            # key and holder syntax
            ACQUIRE | {"key":"a.b","holder":"h","ttl_ms":15000}                | key may hold only
            ACQUIRE | {"key":"a*","holder":"h","ttl_ms":15000}                 | key may hold only
            ACQUIRE | {"key":"","holder":"h","ttl_ms":15000}                   | key must be 1 to 128
            ACQUIRE | {"key":"k","holder":"h h","ttl_ms":15000}                | holder may hold only
            ACQUIRE | {"key":"k","holder":"é","ttl_ms":15000}                  | holder may hold only
            # incarnation: the holder's syntax, at most 64 characters
            ACQUIRE | {"key":"k","holder":"h","incarnation":"","ttl_ms":15000}  | incarnation must be 1 to 64
            ACQUIRE | {"key":"k","holder":"h","incarnation":"a.b","ttl_ms":1000} | incarnation may hold only
            RENEW   | {"key":"k","holder":"h","incarnation":7,"revision":1}     | incarnation must be a string
            RELEASE | {"key":"k","holder":"h","incarnation":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx","revision":1} | incarnation must be 1 to 64
            # JSON integers where integers belong, on every operation
            ACQUIRE | {"key":"k","holder":"h","ttl_ms":"15000"}                | ttl_ms must be a JSON integer
            ACQUIRE | {"key":"k","holder":"h","ttl_ms":1.5e3}                  | ttl_ms must be a JSON integer
            ACQUIRE | {"key":"k","holder":"h","ttl_ms":15000.0}                | ttl_ms must be a JSON integer
            ACQUIRE | {"key":"k","holder":"h","ttl_ms":1e4}                    | ttl_ms must be a JSON integer
            ACQUIRE | {"key":"k","holder":"h","ttl_ms":true}                   | ttl_ms must be a JSON integer
            ACQUIRE | {"key":"k","holder":"h","ttl_ms":null}                   | ttl_ms must be a JSON integer
            OWNER   | {"key":"k","revision":"1"}                               | revision must be a JSON integer
            OWNER   | {"key":"k","timeout_ms":1.0}                             | timeout_ms must be a JSON integer
            # numbers past 2^63-1 or below -2^63
            ACQUIRE | {"key":"k","holder":"h","ttl_ms":9223372036854775808}    | ttl_ms is too large
            RENEW   | {"key":"k","holder":"h","revision":9223372036854775808}  | revision is too large
            RENEW   | {"key":"k","holder":"h","revision":18446744073709551616} | revision is too large
            OWNER   | {"key":"k","timeout_ms":99999999999999999999999999999}   | timeout_ms is too large
            RENEW   | {"key":"k","holder":"h","revision":-9223372036854775809} | revision is out of range
            # ttl_ms: whole seconds from 1000 to 600000
            ACQUIRE | {"key":"k","holder":"h","ttl_ms":1500}                   | whole number of seconds
            ACQUIRE | {"key":"k","holder":"h","ttl_ms":999}                    | ttl_ms must be from 1000 to 600000
            ACQUIRE | {"key":"k","holder":"h","ttl_ms":0}                      | ttl_ms must be from 1000 to 600000
            ACQUIRE | {"key":"k","holder":"h","ttl_ms":-15000}                 | ttl_ms must be from 1000 to 600000
            ACQUIRE | {"key":"k","holder":"h","ttl_ms":601000}                 | ttl_ms must be from 1000 to 600000
            ACQUIRE | {"key":"k","holder":"h","ttl_ms":-9223372036854775808}   | ttl_ms must be from 1000 to 600000
            RENEW   | {"key":"k","holder":"h","revision":3,"ttl_ms":1500}      | whole number of seconds
            # revision: 1 or more
            RENEW   | {"key":"k","holder":"h","revision":0}                    | revision must be 1 or more
            RENEW   | {"key":"k","holder":"h","revision":-1}                   | revision must be 1 or more
            RELEASE | {"key":"k","holder":"h","revision":-9223372036854775808} | revision must be 1 or more
            # forward: standard base64, timeout_ms from 100 to 30000
            FORWARD | {"key":"k","payload":"!!"}                               | payload must be standard base64
            FORWARD | {"key":"k","payload":"aGk=","timeout_ms":99}             | timeout_ms must be from 100 to 30000
            FORWARD | {"key":"k","payload":"aGk=","timeout_ms":30001}          | timeout_ms must be from 100 to 30000
            FORWARD | {"key":"k","payload":"aGk=","timeout_ms":-5000}          | timeout_ms must be from 100 to 30000
            FORWARD | {"key":"k","payload":"aGk=","timeout_ms":0}              | timeout_ms must be from 100 to 30000
            # revoke: key and reason required; reason 1..200 printable ASCII, no edge spaces; revision 1 or more
            REVOKE  | {"key":"k"}                                              | reason is required
            REVOKE  | {"reason":"r"}                                           | key is required
            REVOKE  | {"key":"k","reason":""}                                  | reason must be 1 to 200 characters long
            REVOKE  | {"key":"k","reason":"rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr"}  | reason must be 1 to 200 characters long
            REVOKE  | {"key":"k","reason":"a\\nb"}                              | reason may hold only printable ASCII
            REVOKE  | {"key":"k","reason":"a\\u0000b"}                          | reason may hold only printable ASCII
            REVOKE  | {"key":"k","reason":"tab\\there"}                         | reason may hold only printable ASCII
            REVOKE  | {"key":"k","reason":"a\\u007fb"}                          | reason may hold only printable ASCII
            REVOKE  | {"key":"k","reason":"café"}                              | reason may hold only printable ASCII
            REVOKE  | {"key":"k","reason":" r"}                                | reason may not start or end with a space
            REVOKE  | {"key":"k","reason":"r "}                                | reason may not start or end with a space
            REVOKE  | {"key":"k","reason":5}                                   | reason must be a string
            REVOKE  | {"key":"k","reason":"r","revision":0}                    | revision must be 1 or more
            REVOKE  | {"key":"k","reason":"r","revision":"42"}                 | revision must be a JSON integer
            REVOKE  | {"key":"k","reason":"r","force":true}                    | unknown field "force"
            # account means something only where ADR-036 gives it a meaning: owner and revoke
            ACQUIRE | {"key":"k","holder":"h","ttl_ms":15000,"account":"A"}    | unknown field "account" on acquire
            RENEW   | {"key":"k","holder":"h","revision":1,"account":"A"}      | unknown field "account" on renew
            RELEASE | {"key":"k","holder":"h","revision":1,"account":"A"}      | unknown field "account" on release
            FORWARD | {"key":"k","payload":"","account":"A"}                  | unknown field "account" on forward
            ACQUIRE | {"key":"k","holder":"h","ttl_ms":15000,"account":5}      | unknown field "account" on acquire
            OWNER   | {"key":"k","page_size":"10"}                             | page_size must be a JSON integer
            OWNER   | {"key":"k","cursor":7}                                   | cursor must be a string
            """)
    void anInvalidBodyIsRefusedWithASentence(Operation operation, String body, String sentence) {
        InvalidLeaseInput invalid = assertThrows(InvalidLeaseInput.class, () -> Requests.decode(operation, bytes(body)));
        assertTrue(invalid.getMessage().contains(sentence), invalid.getMessage());
    }

    @Test
    void aBodyNestedTooDeeplyIsRefusedBeforeItIsRead() {
        String deep = "{\"key\":\"k\",\"x\":" + "[".repeat(40) + "]".repeat(40) + "}";
        assertThrows(InvalidLeaseInput.class, () -> Requests.owner(bytes(deep)));
    }

    @Test
    void anUnknownFieldIsNamedSafely() {
        InvalidLeaseInput invalid = assertThrows(InvalidLeaseInput.class,
                () -> Requests.owner(bytes("{\"key\":\"k\",\"a\\\"b\\u0001" + "x".repeat(60) + "\":1}")));
        assertEquals("unknown field \"a?b?" + "x".repeat(36) + "...\"", invalid.getMessage());
    }

    static Stream<Arguments> encodedBodies() {
        return Stream.of(
                Arguments.of(new Request.Acquire(KEY, HOLDER, LeaseTtl.ofSeconds(15)),
                        "{\"key\":\"k\",\"holder\":\"h\",\"ttl_ms\":15000}"),
                Arguments.of(new Request.Renew(KEY, HOLDER, new Fence(42), Optional.empty()),
                        "{\"key\":\"k\",\"holder\":\"h\",\"revision\":42}"),
                Arguments.of(new Request.Renew(KEY, HOLDER, new Fence(42), Optional.of(LeaseTtl.ofSeconds(60))),
                        "{\"key\":\"k\",\"holder\":\"h\",\"revision\":42,\"ttl_ms\":60000}"),
                Arguments.of(new Request.Release(KEY, HOLDER, new Fence(43)),
                        "{\"key\":\"k\",\"holder\":\"h\",\"revision\":43}"),
                Arguments.of(new Request.Acquire(KEY, HOLDER, Optional.of(RUN), LeaseTtl.ofSeconds(15)),
                        "{\"key\":\"k\",\"holder\":\"h\",\"incarnation\":\"run-1\",\"ttl_ms\":15000}"),
                Arguments.of(new Request.Renew(KEY, HOLDER, Optional.of(RUN), new Fence(42), Optional.empty()),
                        "{\"key\":\"k\",\"holder\":\"h\",\"incarnation\":\"run-1\",\"revision\":42}"),
                Arguments.of(new Request.Release(KEY, HOLDER, Optional.of(RUN), new Fence(43)),
                        "{\"key\":\"k\",\"holder\":\"h\",\"incarnation\":\"run-1\",\"revision\":43}"),
                Arguments.of(new Request.Owner(KEY), "{\"key\":\"k\"}"),
                Arguments.of(new Request.Revoke(KEY, new RevokeReason("stuck: \"GC\""), Optional.empty()),
                        "{\"key\":\"k\",\"reason\":\"stuck: \\\"GC\\\"\"}"),
                Arguments.of(new Request.Revoke(KEY, new RevokeReason("r"), Optional.of(new Fence(42))),
                        "{\"key\":\"k\",\"reason\":\"r\",\"revision\":42}"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("encodedBodies")
    void aClientEncodesTheBodyTheServiceDecodes(Request request, String body) {
        assertEquals(body, new String(Requests.encode(request), StandardCharsets.UTF_8));
        assertEquals(request, Requests.decode(request.operation(), Requests.encode(request)));
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

    static Stream<Arguments> listBodies() {
        return Stream.of(
                Arguments.of("{}", ListRequest.first(KeyPrefix.ALL, 1000)),
                Arguments.of("{\"prefix\":\"\"}", ListRequest.first(KeyPrefix.ALL, 1000)),
                Arguments.of("{\"prefix\":\"shard-\",\"page_size\":1}", ListRequest.first(new KeyPrefix("shard-"), 1)),
                Arguments.of("{\"prefix\":\"" + "p".repeat(128) + "\"}",
                        ListRequest.first(new KeyPrefix("p".repeat(128)), 1000)),
                Arguments.of("{\"page_size\":1000,\"cursor\":\"1796055758681470\"}",
                        ListRequest.first(KeyPrefix.ALL, 1000).next("1796055758681470")),
                Arguments.of("{\"cursor\":\"" + "A-z_0".repeat(12) + "9999\"}",
                        ListRequest.first(KeyPrefix.ALL, 1000).next("A-z_0".repeat(12) + "9999")),
                // The lease table's fields are accepted and ignored on list.
                Arguments.of("{\"key\":\"k\",\"holder\":\"h\",\"ttl_ms\":1500,\"revision\":-1,\"payload\":\"!!\","
                        + "\"timeout_ms\":0,\"reason\":\"\"}", ListRequest.first(KeyPrefix.ALL, 1000)));
    }

    @ParameterizedTest(name = "list {0}")
    @MethodSource("listBodies")
    void aValidListBodyDecodesToItsRequest(String body, ListRequest expected) {
        assertEquals(expected, Requests.list(bytes(body)));
    }

    /** Every way a list body breaks the contract, and the sentence that says so. */
    @ParameterizedTest(name = "list [{0}]: {1}")
    @CsvSource(delimiter = '|', nullValues = "<empty>", textBlock = """
            <empty>                                  | the request body is empty
            []                                       | must be a JSON object
            {"prefix":"a.b"}                         | prefix may hold only
            {"prefix":"a*"}                          | prefix may hold only
            {"prefix":"ppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp"} | prefix must be 0 to 128 characters long
            {"prefix":5}                             | prefix must be a string
            {"prefix":null}                          | prefix must be a string
            {"page_size":0}                          | page_size must be from 1 to 1000
            {"page_size":1001}                       | page_size must be from 1 to 1000
            {"page_size":-1}                         | page_size must be from 1 to 1000
            {"page_size":9223372036854775807}        | page_size must be from 1 to 1000
            {"page_size":9223372036854775808}        | page_size is too large
            {"page_size":10.0}                       | page_size must be a JSON integer
            {"page_size":"10"}                       | page_size must be a JSON integer
            {"cursor":""}                            | cursor must be 1 to 64 characters long
            {"cursor":"11111111111111111111111111111111111111111111111111111111111111111"} | cursor must be 1 to 64 characters long
            {"cursor":"12 34"}                       | cursor is not one dagnats made
            {"cursor":"12.34"}                       | cursor is not one dagnats made
            {"cursor":17}                            | cursor must be a string
            {"limit":10}                             | unknown field "limit"
            {"account":"A"}                          | unknown field "account" on list
            {"account":"A","prefix":"a.b"}           | unknown field "account" on list
            {"prefix":"a","prefix":"b"}              | duplicate field
            {"key":5}                                | key must be a string
            """)
    void anInvalidListBodyIsRefusedWithASentence(String body, String sentence) {
        InvalidLeaseInput invalid = assertThrows(InvalidLeaseInput.class, () -> Requests.list(bytes(body)));
        assertTrue(invalid.getMessage().contains(sentence), invalid.getMessage());
    }

    @Test
    void aListRequestIsNoRequestAboutOneKey() {
        assertThrows(IllegalArgumentException.class, () -> Requests.decode(Operation.LIST, bytes("{}")));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("encodedListBodies")
    void aClientEncodesTheListBodyTheServiceDecodes(ListRequest request, String body) {
        assertEquals(body, new String(Requests.encode(request), StandardCharsets.UTF_8));
        assertEquals(request, Requests.list(Requests.encode(request)));
    }

    static Stream<Arguments> encodedListBodies() {
        return Stream.of(
                Arguments.of(ListRequest.first(KeyPrefix.ALL, 1000), "{\"page_size\":1000}"),
                Arguments.of(ListRequest.first(new KeyPrefix("shard-"), 50).next("17"),
                        "{\"prefix\":\"shard-\",\"page_size\":50,\"cursor\":\"17\"}"));
    }

    @Test
    void aListRequestOutsideTheContractCannotBeBuilt() {
        assertThrows(InvalidLeaseInput.class, () -> ListRequest.first(KeyPrefix.ALL, 0));
        assertThrows(InvalidLeaseInput.class, () -> ListRequest.first(KeyPrefix.ALL, 1001));
        assertThrows(InvalidLeaseInput.class, () -> ListRequest.first(KeyPrefix.ALL, 10).next("a b"));
    }
}
