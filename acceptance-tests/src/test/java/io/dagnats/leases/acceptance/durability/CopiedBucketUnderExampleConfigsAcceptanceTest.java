package io.dagnats.leases.acceptance.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.ExampleConfig;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.adapters.nats.BucketStatus;
import io.dagnats.leases.bootstrap.DagnatsServer;
import io.nats.client.JetStreamManagement;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.api.StreamInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A bucket recreated from a copy of its own configuration is refused (ADR-035) where people follow
 * the docs: under each shipped example configuration, dagnats' own user records the bucket's
 * creation time in its metadata ({@code dagnats.created}, which needs
 * {@code $JS.API.STREAM.UPDATE.KV_leases}), so after an admin deletes the bucket and creates it
 * again from that copy, every instance, one started after the copy included, answers
 * {@code unsupported} naming the copy, rather than handing out the original's fences again.
 */
class CopiedBucketUnderExampleConfigsAcceptanceTest {

    private static final String CREATED = "dagnats.created";

    @ParameterizedTest
    @EnumSource(ExampleConfig.class)
    void aBucketRecreatedFromACopyOfItsConfigurationIsRefusedByEveryInstance(ExampleConfig example) throws Exception {
        try (NatsServerProcess nats = example.start();
                DagnatsServer first = DagnatsServer.start(example.dagnats(nats, Map.of()));
                WireClient alice = example.holder(nats);
                WireClient admin = example.admin(nats)) {
            JetStreamManagement management = admin.connection().jetStreamManagement();
            long old = RollbackPlay.acquired(alice, "k1", "h1", 30_000).path("revision").asLong();
            // Before the copy: the stamp is written with the example's permissions (it was not before
            // they granted the update), and it names this bucket's own creation.
            StreamInfo original = Polling.until(Duration.ofSeconds(10), CREATED + " in the bucket's metadata",
                    () -> streamInfo(management), info -> info != null
                            && info.getConfiguration().getMetadata().containsKey(CREATED));
            StreamConfiguration copied = original.getConfiguration();
            assertEquals(original.getCreateTime().toInstant(), Instant.parse(copied.getMetadata().get(CREATED)),
                    copied.getMetadata().toString());

            BucketByHand.recreate(management, copied);

            BucketStatus refusedByFirst = Polling.until(Duration.ofSeconds(10), "the running instance to refuse the copy",
                    first::status, status -> status instanceof BucketStatus.Unsupported);
            assertNamesTheCopy(refusedByFirst);
            try (DagnatsServer later = DagnatsServer.start(example.dagnats(nats, Map.of()))) {
                assertNamesTheCopy(later.status());
                // Both instances answer the queue group's requests: every answer refuses, naming the copy.
                List<JsonNode> answers = new ArrayList<>();
                for (int i = 0; i < 10; i++) {
                    answers.add(alice.acquire("k" + i, "h2", 30_000));
                }
                answers.add(RollbackPlay.renew(alice, "k1", "h1", old));
                for (JsonNode answer : answers) {
                    assertFalse(answer.path("granted").asBoolean() || answer.path("renewed").asBoolean(), answers.toString());
                    assertEquals("unsupported", answer.path("kind").asText(), answers.toString());
                    assertTrue(answer.path("error").asText().contains("copy"), answers.toString());
                }
            }
        }
    }

    private static void assertNamesTheCopy(BucketStatus status) {
        assertInstanceOf(BucketStatus.Unsupported.class, status, status.describe());
        assertTrue(status.describe().contains("copy") && status.describe().contains(CREATED), status.describe());
    }

    private static StreamInfo streamInfo(JetStreamManagement management) {
        try {
            return management.getStreamInfo("KV_leases");
        } catch (Exception notYet) {
            return null;
        }
    }
}
