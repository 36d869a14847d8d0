package io.dagnats.leases.acceptance.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.Reliability;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.nats.client.Message;
import io.nats.client.Subscription;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Thousands of generated bodies (random JSON, deep nesting, huge strings, wrong
 * types, unicode, boundary numbers) to every subject: every one gets a JSON
 * reply, invalid ones change nothing in the bucket, and the service stays up
 * with its heap bounded.
 */
class FuzzedInputAcceptanceTest {

    static final int BODIES_PER_SUBJECT = 1_000;
    private static final List<String> SUBJECTS = List.of("acquire", "renew", "release", "owner", "forward");
    private static final Set<String> NORMAL_KINDS = Set.of("lost", "no_owner", "owner_unavailable",
            "owner_rejected", "owner_timeout");
    private static final String[] FIELDS = {"key", "holder", "ttl_ms", "revision", "payload", "timeout_ms",
            "Key", "extra", "", "key ", "\u00fcber", "ttl"};
    private static final String[] NUMBERS = {"0", "-0", "1", "-1", "999", "1000", "1500", "2000", "15000", "600000",
            "600001", "99", "100", "30000", "30001", "9223372036854775807", "9223372036854775808",
            "-9223372036854775808", "18446744073709551616", "1e3", "1.0", "1000.5", "1E400", "0.0000001"};
    private static final String[] STRINGS = {"", "k", "fuzz-key", "a.b", "a*", ">", "a b", "\u00e9", "\uD83D\uDE00",
            "\\u0000", "\\n", "fuzz-holder", "AA==", "not base64!", "aGVsbG8="};

    private final Random random = new Random(20261130L);

    @Test
    void everyGeneratedBodyGetsAJsonAnswerAndInvalidOnesChangeNothing() throws Exception {
        try (ServiceFixture service = ServiceFixture.start()) {
            WireClient client = service.client;
            // Every stored message is republished: counting events counts writes, expiry markers included.
            Subscription events = client.connection().subscribe("dagnats.lease.changed.>");
            client.connection().flush(Duration.ofSeconds(5));
            long heapBefore = usedHeapAfterGc();

            Set<Long> acknowledgedWrites = new HashSet<>();
            int invalid = 0;
            int normal = 0;
            for (int i = 0; i < BODIES_PER_SUBJECT; i++) {
                for (String subject : SUBJECTS) {
                    String body = body(0);
                    JsonNode reply = client.call(subject, body);
                    String kind = reply.path("kind").asText();
                    if (kind.equals("invalid")) {
                        invalid++;
                    } else if (kind.isEmpty() || NORMAL_KINDS.contains(kind)) {
                        normal++;
                        boolean wrote = reply.path("granted").asBoolean() || reply.path("released").asBoolean();
                        if (wrote) {
                            acknowledgedWrites.add(reply.path("revision").asLong());
                        }
                    } else {
                        fail(subject + " " + abbreviate(body) + " -> " + reply);
                    }
                }
            }
            client.connection().flush(Duration.ofSeconds(5));
            int leaseEvents = 0;
            Message event;
            while ((event = events.nextMessage(Duration.ofMillis(500))) != null) {
                if (event.getHeaders().getFirst("Dagnats-Lease-Event") != null) {
                    leaseEvents++;
                }
            }
            long heapAfter = usedHeapAfterGc();

            Reliability.report("fuzzed input", (invalid + normal) + " bodies, " + invalid + " invalid, "
                    + normal + " normal answers, " + acknowledgedWrites.size() + " writes, heap "
                    + heapBefore / 1_048_576 + " MiB -> " + heapAfter / 1_048_576 + " MiB");
            assertEquals(acknowledgedWrites.size(), leaseEvents, "writes the answers do not account for");
            assertTrue(invalid > BODIES_PER_SUBJECT, "the generator made too few invalid bodies: " + invalid);
            assertTrue(heapAfter - heapBefore < 64L * 1_048_576, "heap grew by " + (heapAfter - heapBefore) + " bytes");
            JsonNode after = client.acquire("after-fuzz", "h", 15_000);
            assertTrue(after.path("granted").asBoolean(), "the service is not serving after the fuzz: " + after);
        }
    }

    /** A random JSON text, mostly objects with plausible fields, sometimes anything at all. */
    private String body(int depth) {
        int shape = random.nextInt(20);
        if (depth == 0 && shape == 0) {
            return randomBytes();
        }
        if (depth == 0 && shape == 1) {
            return "[".repeat(1 + random.nextInt(5_000));
        }
        if (depth == 0 && shape == 2) {
            return "{\"key\":\"" + "k".repeat(1 + random.nextInt(200_000)) + "\"}";
        }
        if (depth == 0 && shape == 3) {
            return "{\"key\":\"fuzz-key\",\"holder\":\"fuzz-holder\",\"ttl_ms\":" + pick(NUMBERS) + "}";
        }
        StringBuilder object = new StringBuilder("{");
        int fields = random.nextInt(7);
        for (int i = 0; i < fields; i++) {
            if (i > 0) {
                object.append(',');
            }
            object.append('"').append(pick(FIELDS)).append("\":").append(value(depth));
        }
        return object.append('}').toString();
    }

    private String value(int depth) {
        return switch (random.nextInt(depth > 3 ? 6 : 8)) {
            case 0, 1 -> "\"" + pick(STRINGS) + "\"";
            case 2, 3 -> pick(NUMBERS);
            case 4 -> random.nextBoolean() ? "true" : "null";
            case 5 -> "\"" + "x".repeat(random.nextInt(2_000)) + "\"";
            case 6 -> "[" + value(depth + 1) + "]";
            default -> body(depth + 1);
        };
    }

    private String randomBytes() {
        byte[] bytes = new byte[1 + random.nextInt(64)];
        random.nextBytes(bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    private String pick(String[] choices) {
        return choices[random.nextInt(choices.length)];
    }

    private static String abbreviate(String body) {
        return body.length() > 200 ? body.substring(0, 200) + "..." : body;
    }

    private static long usedHeapAfterGc() {
        Runtime runtime = Runtime.getRuntime();
        System.gc();
        return runtime.totalMemory() - runtime.freeMemory();
    }
}
