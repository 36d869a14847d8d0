package io.dagnats.leases.protocol;

import static io.dagnats.leases.protocol.WireText.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.InvalidLeaseInput;
import io.dagnats.leases.domain.KeyPrefix;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** A list request, about no one key: what it accepts and refuses, and how a client encodes it. */
class ListRequestTest {

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
