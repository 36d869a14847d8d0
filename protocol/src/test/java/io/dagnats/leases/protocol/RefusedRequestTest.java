package io.dagnats.leases.protocol;

import static io.dagnats.leases.protocol.WireText.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.InvalidLeaseInput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The contract's request table, row by row: what is {@code invalid}, and the sentence that says why. */
class RefusedRequestTest {

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
}
