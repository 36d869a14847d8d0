package io.dagnats.leases.acceptance.operations;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the watch tests read: the CLI's lines and notices, and which revisions the stream still
 * holds. A base class so that the tests, split by the rule they prove, moved without being rewritten.
 */
abstract class WatchReading extends SharedServiceTest {

    static final Duration LIMIT = Duration.ofSeconds(60);
    static final String STREAM = "KV_leases";
    static final int NO_MESSAGE_FOUND = 10037;
    static final Pattern START = Pattern.compile("from revision (\\d+) \\(Ctrl-C to stop\\)");
    static final Pattern NOT_HELD_RANGE = Pattern.compile("no longer holds revisions? (\\d+)(?: to (\\d+))?;");
    static final Pattern NOT_HELD_COUNT = Pattern.compile("caught up at revision \\d+: (\\d+) revisions?");

    static long revision(JsonNode reply) {
        assertTrue(reply.has("revision") && !reply.path("kind").isTextual(), reply.toString());
        return reply.path("revision").asLong();
    }

    /** The revisions from {@code from} to {@code to} that the stream holds now. */
    static List<Long> held(WireClient client, long from, long to) throws Exception {
        JetStreamManagement stream = client.connection().jetStreamManagement();
        List<Long> held = new ArrayList<>();
        for (long revision = from; revision <= to; revision++) {
            if (isHeld(stream, revision)) {
                held.add(revision);
            }
        }
        return held;
    }

    static boolean isHeld(JetStreamManagement stream, long revision) throws IOException {
        try {
            stream.getMessage(STREAM, revision);
            return true;
        } catch (JetStreamApiException missing) {
            if (missing.getApiErrorCode() == NO_MESSAGE_FOUND) {
                return false;
            }
            throw new IllegalStateException(missing);
        }
    }

    static List<Long> sequences(String jsonLines) {
        return jsonLines.lines().map(WatchResumeAcceptanceTest::json).map(line -> line.path("sequence").asLong()).toList();
    }

    static JsonNode event(String jsonLines, long sequence) {
        return jsonLines.lines().map(WatchResumeAcceptanceTest::json)
                .filter(line -> line.path("sequence").asLong() == sequence).findFirst().orElseThrow();
    }

    static JsonNode json(String line) {
        try {
            return WireClient.JSON.readTree(line);
        } catch (IOException notJson) {
            throw new AssertionError("not JSON: " + line, notJson);
        }
    }

    /** The watch's stderr lines but the one that says it began. */
    static List<String> notices(String err) {
        return err.lines().filter(line -> !line.startsWith("watching ")).toList();
    }

    /** How many revisions stderr said the bucket no longer held. */
    static long reportedNotHeld(String err) {
        long count = 0;
        for (String line : err.lines().toList()) {
            Matcher range = NOT_HELD_RANGE.matcher(line);
            Matcher counted = NOT_HELD_COUNT.matcher(line);
            if (range.find()) {
                long from = Long.parseLong(range.group(1));
                count += (range.group(2) == null ? from : Long.parseLong(range.group(2))) - from + 1;
            } else if (counted.find()) {
                count += Long.parseLong(counted.group(1));
            }
        }
        return count;
    }
}
