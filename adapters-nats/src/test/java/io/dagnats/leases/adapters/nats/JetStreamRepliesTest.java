package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonFactory;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the store makes of each answer JetStream gives a message get and a
 * publish. "Unreadable" is any exception: the store turns each into an
 * {@code internal} failure.
 */
class JetStreamRepliesTest {

    private static final JsonFactory JSON = new JsonFactory();

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(utf8(text));
    }

    private static String error(int code, int errorCode, String description) {
        return "{\"code\":" + code + ",\"err_code\":" + errorCode + ",\"description\":\"" + description + "\"}";
    }

    @Test
    void getReplyWithAMessageCarriesItsSequenceTimeHeadersAndData() throws Exception {
        String body = "{\"type\":\"io.nats.jetstream.api.v1.stream_msg_get_response\",\"message\":{"
                + "\"subject\":\"$KV.leases.orders\",\"seq\":42,"
                + "\"hdrs\":\"" + base64("NATS/1.0\r\nNats-TTL: 30s\r\nDagnats-Event: acquired\r\n\r\n") + "\","
                + "\"data\":\"" + base64("{\"holder\":\"a\"}") + "\","
                + "\"time\":\"2026-01-02T03:04:05.123456789Z\"}}";

        MessageGetReply reply = JetStreamReplies.parseGetReply(JSON, utf8(body));

        assertNull(reply.error());
        StoredMessage message = reply.message();
        assertEquals(42, message.sequence());
        assertEquals(Instant.parse("2026-01-02T03:04:05.123456789Z"), message.time());
        assertEquals("30s", message.header("Nats-TTL"));
        assertEquals("acquired", message.header("dagnats-event"));
        assertArrayEquals(utf8("{\"holder\":\"a\"}"), message.data());
    }

    @Test
    void getReplyMessageWithoutHeadersOrDataHasNone() throws Exception {
        MessageGetReply reply = JetStreamReplies.parseGetReply(JSON,
                utf8("{\"message\":{\"seq\":7,\"time\":\"2026-01-02T03:04:05Z\"}}"));

        assertEquals(Map.of(), reply.message().headers());
        assertArrayEquals(new byte[0], reply.message().data());
    }

    static Stream<Arguments> getReplyErrors() {
        return Stream.of(
                Arguments.of(404, JetStreamApiError.NO_MESSAGE_FOUND, "no message found"),
                Arguments.of(404, JetStreamApiError.STREAM_NOT_FOUND, "stream not found"),
                Arguments.of(503, 10008, "JetStream system temporarily unavailable"),
                Arguments.of(500, 10002, "some other fault"));
    }

    @ParameterizedTest(name = "{1}: {2}")
    @MethodSource("getReplyErrors")
    void getReplyErrorCarriesItsCodes(int code, int errorCode, String description) throws Exception {
        MessageGetReply reply = JetStreamReplies.parseGetReply(JSON,
                utf8("{\"type\":\"io.nats.jetstream.api.v1.stream_msg_get_response\",\"error\":"
                        + error(code, errorCode, description) + "}"));

        assertNull(reply.message());
        assertEquals(new JetStreamApiError(code, errorCode, description), reply.error());
    }

    static Stream<Arguments> unreadableGetReplies() {
        return Stream.of(
                Arguments.of("empty", ""),
                Arguments.of("not JSON", "no responders"),
                Arguments.of("truncated", "{\"message\":{\"seq\":1"),
                Arguments.of("an array", "[]"),
                Arguments.of("neither message nor error", "{\"type\":\"x\"}"),
                Arguments.of("message not an object", "{\"message\":5}"),
                Arguments.of("error not an object", "{\"error\":\"boom\"}"),
                Arguments.of("message without seq", "{\"message\":{\"time\":\"2026-01-02T03:04:05Z\"}}"),
                Arguments.of("message with seq 0", "{\"message\":{\"seq\":0,\"time\":\"2026-01-02T03:04:05Z\"}}"),
                Arguments.of("message without time", "{\"message\":{\"seq\":3}}"),
                Arguments.of("time not a time", "{\"message\":{\"seq\":3,\"time\":\"yesterday\"}}"),
                Arguments.of("headers not base64", "{\"message\":{\"seq\":3,\"time\":\"2026-01-02T03:04:05Z\",\"hdrs\":\"%%\"}}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unreadableGetReplies")
    void unreadableGetReplyIsRejected(String what, String body) {
        assertThrows(Exception.class, () -> JetStreamReplies.parseGetReply(JSON, utf8(body)));
    }

    @Test
    void getReplyFieldsThisAdapterDoesNotKnowAreSkippedWhateverTheirShape() throws Exception {
        MessageGetReply reply = JetStreamReplies.parseGetReply(JSON, utf8("{\"future\":{\"nested\":[1,{\"seq\":99}]},"
                + "\"message\":{\"extra\":[{\"a\":1}],\"seq\":5,\"meta\":{\"seq\":6},\"time\":\"2026-01-02T03:04:05Z\"},"
                + "\"later\":[\"x\"]}"));

        assertEquals(5, reply.message().sequence());
    }

    static Stream<Arguments> publishAcks() {
        return Stream.of(
                Arguments.of("stored", "{\"stream\":\"KV_leases\",\"seq\":42}", 42L, null),
                Arguments.of("stored with more fields", "{\"stream\":\"KV_leases\",\"domain\":\"hub\",\"seq\":43,\"duplicate\":false}",
                        43L, null),
                Arguments.of("wrong last sequence", "{\"error\":" + error(400, 10071, "wrong last sequence: 41") + "}",
                        0L, new JetStreamApiError(400, 10071, "wrong last sequence: 41")),
                Arguments.of("wrong last sequence, constant text", "{\"error\":" + error(400, 10164, "wrong last sequence") + "}",
                        0L, new JetStreamApiError(400, 10164, "wrong last sequence")),
                Arguments.of("no leader", "{\"error\":" + error(503, 10008, "JetStream system temporarily unavailable") + "}",
                        0L, new JetStreamApiError(503, 10008, "JetStream system temporarily unavailable")),
                Arguments.of("error without description", "{\"error\":{\"code\":500}}",
                        0L, new JetStreamApiError(500, 0, "")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("publishAcks")
    void publishAckCarriesTheSequenceOrTheError(String what, String body, long sequence, JetStreamApiError error)
            throws Exception {
        assertEquals(new PublishAck(sequence, error), JetStreamReplies.parsePublishAck(JSON, utf8(body)));
    }

    static Stream<Arguments> wrongLastSequence() {
        return Stream.of(
                Arguments.of(JetStreamApiError.WRONG_LAST_SEQUENCE, true),
                Arguments.of(JetStreamApiError.WRONG_LAST_SEQUENCE_CONSTANT, true),
                Arguments.of(JetStreamApiError.NO_MESSAGE_FOUND, false),
                Arguments.of(10077, false),
                Arguments.of(0, false));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("wrongLastSequence")
    void onlyTheWrongLastSequenceCodesAreAConflict(int errorCode, boolean conflict) {
        assertEquals(conflict, new JetStreamApiError(400, errorCode, "").wrongLastSequence());
    }

    static Stream<Arguments> unreadablePublishAcks() {
        return Stream.of(
                Arguments.of("empty", ""),
                Arguments.of("not JSON", "+OK"),
                Arguments.of("truncated", "{\"seq\":"),
                Arguments.of("missing seq", "{\"stream\":\"KV_leases\"}"),
                Arguments.of("seq 0", "{\"stream\":\"KV_leases\",\"seq\":0}"),
                Arguments.of("seq not a number", "{\"seq\":\"many\"}"),
                Arguments.of("error not an object", "{\"error\":503}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unreadablePublishAcks")
    void unreadablePublishAckIsRejected(String what, String body) {
        assertThrows(Exception.class, () -> JetStreamReplies.parsePublishAck(JSON, utf8(body)));
    }

    static Stream<Arguments> headerBlocks() {
        return Stream.of(
                Arguments.of("one header", "NATS/1.0\r\nKV-Operation: DEL\r\n\r\n", Map.of("kv-operation", "DEL")),
                Arguments.of("names in lower case", "NATS/1.0\r\nNats-Marker-Reason: MaxAge\r\nNATS-TTL: 5s\r\n\r\n",
                        Map.of("nats-marker-reason", "MaxAge", "nats-ttl", "5s")),
                Arguments.of("the last of a repeated name wins", "NATS/1.0\r\nA: 1\r\na: 2\r\nA: 3\r\n\r\n", Map.of("a", "3")),
                Arguments.of("a status line is no header", "NATS/1.0 404 No Messages\r\n\r\n", Map.of()),
                Arguments.of("headers after a status line", "NATS/1.0 408 Request: Timeout\r\nB: 2\r\n\r\n", Map.of("b", "2")),
                Arguments.of("spaces stripped, colons kept in the value", "NATS/1.0\r\n  Time :  12:30:00 \r\n\r\n",
                        Map.of("time", "12:30:00")),
                Arguments.of("lines without a name skipped", "NATS/1.0\r\nno colon\r\n: nameless\r\nC:\r\n\r\n", Map.of("c", "")),
                Arguments.of("empty", "", Map.of()),
                Arguments.of("no trailing blank line", "NATS/1.0\r\nD: 4", Map.of("d", "4")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("headerBlocks")
    void headerBlockIsReadAsLowerCaseNames(String what, String block, Map<String, String> expected) {
        assertEquals(expected, JetStreamReplies.parseHeaders(utf8(block)));
    }

    @Test
    void headerLookupIgnoresCase() {
        StoredMessage message = new StoredMessage(1, "$KV.leases.k", Instant.EPOCH,
                JetStreamReplies.parseHeaders(utf8("NATS/1.0\r\nNats-Marker-Reason: Remove\r\n\r\n")), new byte[0]);

        assertEquals("Remove", message.header("NATS-MARKER-REASON"));
        assertEquals("Remove", message.header("nats-marker-reason"));
        assertNull(message.header("Nats-TTL"));
    }
}
