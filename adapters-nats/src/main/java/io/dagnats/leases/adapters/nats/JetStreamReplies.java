package io.dagnats.leases.adapters.nats;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import io.dagnats.leases.protocol.Timestamps;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Reads the JetStream API's answers to a message get and to a publish. */
final class JetStreamReplies {

    private JetStreamReplies() {
    }

    /** @throws IOException when the body is not a get reply: not JSON, neither message nor error, a message without sequence or time */
    static MessageGetReply parseGetReply(JsonFactory json, byte[] body) throws IOException {
        try (JsonParser parser = json.createParser(body)) {
            parser.nextToken();
            GetReplyFields fields = new GetReplyFields();
            JsonFields.forEach(parser, (name, value) -> {
                switch (name) {
                    case "message" -> fields.message = parseMessage(value);
                    case "error" -> fields.error = parseError(value);
                    default -> { }
                }
            });
            if (fields.message == null && fields.error == null) {
                throw new IOException("a message get reply with neither message nor error");
            }
            return new MessageGetReply(fields.message, fields.error);
        }
    }

    /**
     * The server's clock as a stream info reply gives it ({@code ts}, nats-server 2.10 and newer):
     * the stream leader's, at the moment it answered. Empty for an error reply or one without it.
     *
     * @throws IOException when the body is not JSON
     */
    static Optional<Instant> parseServerTime(JsonFactory json, byte[] body) throws IOException {
        try (JsonParser parser = json.createParser(body)) {
            parser.nextToken();
            Instant[] time = new Instant[1];
            boolean[] error = new boolean[1];
            JsonFields.forEach(parser, (name, value) -> {
                switch (name) {
                    case "ts" -> time[0] = Timestamps.parse(value.getText());
                    case "error" -> error[0] = true;
                    default -> { }
                }
            });
            return error[0] ? Optional.empty() : Optional.ofNullable(time[0]);
        }
    }

    /** @throws IOException when the body is not an acknowledgement: not JSON, or neither a sequence nor an error */
    static PublishAck parsePublishAck(JsonFactory json, byte[] body) throws IOException {
        try (JsonParser parser = json.createParser(body)) {
            parser.nextToken();
            PublishAckFields fields = new PublishAckFields();
            JsonFields.forEach(parser, (name, value) -> {
                switch (name) {
                    case "seq" -> fields.sequence = value.getLongValue();
                    case "error" -> fields.error = parseError(value);
                    default -> { }
                }
            });
            if (fields.error == null && fields.sequence < 1) {
                throw new IOException("a publish acknowledgement without a sequence");
            }
            return new PublishAck(fields.sequence, fields.error);
        }
    }

    /**
     * Parses a {@code NATS/1.0} header block. The last value of a repeated name wins. Walked
     * line by line in place: read on every leader read, where a split by pattern showed in
     * the profile.
     */
    static Map<String, String> parseHeaders(byte[] block) {
        String text = new String(block, StandardCharsets.UTF_8);
        Map<String, String> headers = new HashMap<>();
        int length = text.length();
        int lineEnd = text.indexOf("\r\n"); // the status line is no header
        while (lineEnd >= 0) {
            int start = lineEnd + 2;
            lineEnd = text.indexOf("\r\n", start);
            int end = lineEnd < 0 ? length : lineEnd;
            int colon = text.indexOf(':', start);
            if (colon > start && colon < end) {
                headers.put(text.substring(start, colon).strip().toLowerCase(Locale.ROOT),
                        text.substring(colon + 1, end).strip());
            }
        }
        return headers;
    }

    private static StoredMessage parseMessage(JsonParser parser) throws IOException {
        MessageFields fields = new MessageFields();
        JsonFields.forEach(parser, (name, value) -> {
            switch (name) {
                case "seq" -> fields.sequence = value.getLongValue();
                case "subject" -> fields.subject = value.getText();
                case "time" -> fields.time = Timestamps.parse(value.getText());
                case "hdrs" -> fields.headers = parseHeaders(Base64.getDecoder().decode(value.getText()));
                case "data" -> fields.data = Base64.getDecoder().decode(value.getText());
                default -> { }
            }
        });
        if (fields.sequence < 1 || fields.time == null) {
            throw new IOException("a stored message without a sequence or a time");
        }
        return new StoredMessage(fields.sequence, fields.subject, fields.time, fields.headers, fields.data);
    }

    private static JetStreamApiError parseError(JsonParser parser) throws IOException {
        ErrorFields fields = new ErrorFields();
        JsonFields.forEach(parser, (name, value) -> {
            switch (name) {
                case "code" -> fields.code = value.getIntValue();
                case "err_code" -> fields.errorCode = value.getIntValue();
                case "description" -> fields.description = value.getText();
                default -> { }
            }
        });
        return new JetStreamApiError(fields.code, fields.errorCode, fields.description);
    }

    // What a walk has read so far: lambdas cannot assign the walker's locals.

    private static final class GetReplyFields {
        StoredMessage message;
        JetStreamApiError error;
    }

    private static final class PublishAckFields {
        long sequence;
        JetStreamApiError error;
    }

    private static final class MessageFields {
        long sequence;
        String subject;
        Instant time;
        Map<String, String> headers = Map.of();
        byte[] data = new byte[0];
    }

    private static final class ErrorFields {
        int code;
        int errorCode;
        String description = "";
    }
}
