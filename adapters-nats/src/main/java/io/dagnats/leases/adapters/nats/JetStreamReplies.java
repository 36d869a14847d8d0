package io.dagnats.leases.adapters.nats;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

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

    /** Parses a {@code NATS/1.0} header block. The last value of a repeated name wins. */
    static Map<String, String> parseHeaders(byte[] block) {
        String text = new String(block, StandardCharsets.UTF_8);
        Map<String, String> headers = new HashMap<>();
        String[] lines = text.split("\r\n");
        for (int i = 1; i < lines.length; i++) {
            String line = lines[i];
            int colon = line.indexOf(':');
            if (colon > 0) {
                headers.put(line.substring(0, colon).strip().toLowerCase(Locale.ROOT), line.substring(colon + 1).strip());
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
                case "time" -> fields.time = Instant.parse(value.getText());
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
