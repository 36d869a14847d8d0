package io.dagnats.leases.acceptance.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.adapters.nats.BucketStatus;
import io.dagnats.leases.bootstrap.DagnatsServer;
import io.dagnats.leases.bootstrap.Settings;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.api.DiscardPolicy;
import io.nats.client.api.Mirror;
import io.nats.client.api.Republish;
import io.nats.client.api.RetentionPolicy;
import io.nats.client.api.Source;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.api.StreamInfo;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A {@code leases} bucket made by someone else is reused only when every
 * setting lease safety rests on holds; otherwise every call answers
 * {@code unsupported} naming the setting, and nothing is written.
 */
public class BucketSettingsAcceptanceTest {

    private static NatsServerProcess nats;
    private static WireClient admin;

    @BeforeAll
    static void startServer() {
        nats = NatsServerProcess.modern();
        admin = new WireClient(nats.url());
    }

    @AfterAll
    static void stopServer() throws InterruptedException {
        admin.close();
        nats.close();
    }

    private static final AtomicInteger OTHERS = new AtomicInteger();
    /** The stream a "sources" or "mirror" case points the bucket at; read when the case's change is applied. */
    private static volatile String otherStream = "OTHER";

    @AfterEach
    void deleteBuckets() throws Exception {
        JetStreamManagement management = admin.connection().jetStreamManagement();
        for (String stream : management.getStreamNames()) {
            management.deleteStream(stream);
        }
    }

    /** What dagnats itself would create, as a raw stream: the baseline each case breaks once. */
    public static StreamConfiguration.Builder safeBucket() {
        return StreamConfiguration.builder()
                .name("KV_leases")
                .subjects("$KV.leases.>")
                .maxMessagesPerSubject(1)
                .allowRollup(true)
                .denyDelete(true)
                .allowDirect(true)
                .discardPolicy(DiscardPolicy.New)
                .storageType(StorageType.File)
                .allowMessageTtl()
                .subjectDeleteMarkerTtl(Duration.ofSeconds(60))
                .republish(Republish.builder().source("$KV.leases.>").destination("dagnats.lease.changed.>").build());
    }

    static Stream<Arguments> unsafeBuckets() {
        return Stream.of(
                unsafe("max_age", bucket -> bucket.maxAge(Duration.ofSeconds(2))),
                unsafe("history", bucket -> bucket.maxMessagesPerSubject(5)),
                unsafe("allow_msg_ttl", bucket -> bucket.allowMessageTtl(false).subjectDeleteMarkerTtl(0)),
                unsafe("subject_delete_marker_ttl", bucket -> bucket.subjectDeleteMarkerTtl(0)),
                unsafe("storage", bucket -> bucket.storageType(StorageType.Memory)),
                unsafe("max_msgs", bucket -> bucket.maxMessages(1000).discardPolicy(DiscardPolicy.Old)),
                unsafe("max_bytes", bucket -> bucket.maxBytes(1_000_000).discardPolicy(DiscardPolicy.Old)),
                unsafe("no_ack", bucket -> bucket.noAck(true)),
                unsafe("retention", bucket -> bucket.retentionPolicy(RetentionPolicy.WorkQueue)),
                unsafe("subjects", bucket -> bucket.subjects("$KV.leases.only-some.>")),
                unsafe("republish", bucket -> bucket.republish(null)),
                unsafe("republish", bucket -> bucket.republish(Republish.builder()
                        .source("$KV.leases.>").destination("dagnats.lease.changed.>").headersOnly(true).build())),
                unsafe("sources", bucket -> bucket.sources(Source.builder().name(otherStream).build())),
                // A mirror may have neither subjects nor delete markers nor republish: it is judged a mirror first.
                unsafe("mirror", bucket -> bucket.subjects().subjectDeleteMarkerTtl(0).republish(null)
                        .mirror(Mirror.builder().name(otherStream).build())));
    }

    private static Arguments unsafe(String setting, UnaryOperator<StreamConfiguration.Builder> change) {
        return Arguments.of(setting, change);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unsafeBuckets")
    void aPremadeBucketWithAnUnsafeSettingAnswersUnsupportedNamingItAndChangesNothing(
            String setting, UnaryOperator<StreamConfiguration.Builder> change) throws Exception {
        JetStreamManagement management = admin.connection().jetStreamManagement();
        // A name of its own per case: recreating a stream just deleted can race the server's removal
        // of its store ("error creating store for stream", seen once in CI).
        otherStream = "OTHER-" + OTHERS.incrementAndGet();
        management.addStream(StreamConfiguration.builder().name(otherStream).subjects("other.>").build());
        management.addStream(change.apply(safeBucket()).build());
        StreamInfo before = management.getStreamInfo("KV_leases");
        String key = "k-" + UUID.randomUUID();

        try (DagnatsServer dagnats = DagnatsServer.start(Settings.forUrl(nats.url()))) {
            BucketStatus.Unsupported status = assertInstanceOf(BucketStatus.Unsupported.class, dagnats.status(),
                    dagnats.status().describe());
            assertTrue(status.reason().contains(setting), status.reason());

            JsonNode reply = admin.acquire(key, "h1", 10_000);

            assertEquals("unsupported", reply.path("kind").asText(), reply.toString());
            assertTrue(reply.path("error").asText().contains(setting), reply.toString());
        }
        StreamInfo after = management.getStreamInfo("KV_leases");
        assertEquals(0, after.getStreamState().getMsgCount(), "nothing may be written to an unsafe bucket");
        assertEquals(before.getConfiguration().toJson(), after.getConfiguration().toJson(),
                "dagnats must not change a bucket it did not create");
    }

    @Test
    void aSealedBucketAnswersUnsupportedNamingIt() throws Exception {
        JetStreamManagement management = admin.connection().jetStreamManagement();
        management.addStream(safeBucket().build());
        management.updateStream(safeBucket().seal().build());

        try (DagnatsServer dagnats = DagnatsServer.start(Settings.forUrl(nats.url()))) {
            JsonNode reply = admin.acquire("k-" + UUID.randomUUID(), "h1", 10_000);

            assertEquals("unsupported", reply.path("kind").asText(), reply.toString());
            assertTrue(reply.path("error").asText().contains("sealed"), reply.toString());
        }
    }

    /** An R1 bucket reused where three replicas are configured would lose acknowledged leases with one server. */
    @Test
    void aPremadeBucketWithFewerReplicasThanConfiguredAnswersUnsupportedNamingReplicas() throws Exception {
        JetStreamManagement management = admin.connection().jetStreamManagement();
        management.addStream(safeBucket().build());

        Settings threeReplicas = Settings.fromEnvironment(Map.of("NATS_URL", nats.url(), "DAGNATS_LEASE_REPLICAS", "3"));
        try (DagnatsServer dagnats = DagnatsServer.start(threeReplicas)) {
            JsonNode reply = admin.acquire("k-" + UUID.randomUUID(), "h1", 10_000);

            assertEquals("unsupported", reply.path("kind").asText(), reply.toString());
            assertTrue(reply.path("error").asText().contains("replicas 1"), reply.toString());
        }
        assertEquals(0, management.getStreamInfo("KV_leases").getStreamState().getMsgCount());
    }

    @Test
    void aPremadeBucketWithEverySafeSettingServesLeases() throws IOException, JetStreamApiException,
            InterruptedException {
        admin.connection().jetStreamManagement().addStream(safeBucket().build());

        try (DagnatsServer dagnats = DagnatsServer.start(Settings.forUrl(nats.url()))) {
            assertInstanceOf(BucketStatus.Ready.class, dagnats.status(), dagnats.status().describe());

            JsonNode reply = admin.acquire("k-" + UUID.randomUUID(), "h1", 10_000);

            assertTrue(reply.path("granted").asBoolean(), reply.toString());
        }
    }

    @Test
    void aBucketMadeUnsafeWhileServingIsNoticedWithoutARestart() throws Exception {
        JetStreamManagement management = admin.connection().jetStreamManagement();
        management.addStream(safeBucket().build());
        try (DagnatsServer dagnats = DagnatsServer.start(Settings.forUrl(nats.url()))) {
            assertInstanceOf(BucketStatus.Ready.class, dagnats.status(), dagnats.status().describe());

            management.updateStream(safeBucket().maxAge(Duration.ofSeconds(2)).build());

            JsonNode reply = Polling.until(Duration.ofSeconds(15), "acquire to answer unsupported",
                    () -> admin.acquire("k-" + UUID.randomUUID(), "h1", 10_000),
                    answer -> "unsupported".equals(answer.path("kind").asText()));
            assertTrue(reply.path("error").asText().contains("max_age"), reply.toString());
        }
    }
}
