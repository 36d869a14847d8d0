package io.dagnats.leases.acceptance.contract;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.nats.client.JetStreamManagement;
import io.nats.client.api.Mirror;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The operators' listing reads the {@code leases} bucket itself: a mirror of it does not answer,
 * and a mirror that lags or is trimmed cannot end a walk early. From the review of issue 11.
 */
class ListingReadsTheBucketNotAMirrorAcceptanceTest {

    // ---------------------------------------------------------------- listing

    /**
     * Property: a walk lists exactly the held leases, never a released one. Attack: a
     * plain stream mirror of KV_leases (a backup or audit copy, made by an admin). The
     * server gives every mirror of a stream with allow_direct mirror_direct on its own,
     * so the mirror joins the queue group that answers $JS.API.DIRECT.GET.KV_leases and
     * answers some of the listing's batched direct gets with its own history: every
     * revision ever written, since it has no history-1 limit.
     *
     * <p>Fails on 4449e9b: walks list the released key (old revisions from the mirror).
     */
    @Test
    void aMirrorOfTheBucketDoesNotAnswerTheListing() throws Exception {
        try (ServiceFixture service = ServiceFixture.start()) {
            WireClient admin = service.client;
            admin.acquire("audited-first", "h", 60_000);
            JetStreamManagement jsm = admin.connection().jetStreamManagement();
            jsm.addStream(StreamConfiguration.builder().name("LEASES_AUDIT").storageType(StorageType.File)
                    .mirror(Mirror.builder().sourceName("KV_leases").build()).build());
            long first = jsm.getStreamInfo("KV_leases").getStreamState().getLastSequence();
            Polling.until(Duration.ofSeconds(10), "the mirror to start",
                    () -> uncheckedLastSequence(jsm, "LEASES_AUDIT"), seq -> seq >= first);
            long gone = admin.acquire("audited-gone", "h", 60_000).path("revision").asLong();
            gone = admin.renew("audited-gone", "h", gone).path("revision").asLong();
            admin.release("audited-gone", "h", gone);
            long held = admin.acquire("audited-held", "h", 60_000).path("revision").asLong();
            long last = jsm.getStreamInfo("KV_leases").getStreamState().getLastSequence();
            Polling.until(Duration.ofSeconds(10), "the mirror to catch up",
                    () -> uncheckedLastSequence(jsm, "LEASES_AUDIT"), seq -> seq >= last);

            List<String> wrong = new ArrayList<>();
            for (int walk = 0; walk < 20; walk++) {
                Map<String, JsonNode> listed = OperatorSubjectsAcceptanceTest.leases(
                        OperatorSubjectsAcceptanceTest.walk(admin, "audited-", 1000));
                listed.remove("audited-first");
                JsonNode heldView = listed.get("audited-held");
                if (listed.size() != 1 || heldView == null || heldView.path("revision").asLong() != held) {
                    wrong.add("walk " + walk + ": " + listed.keySet() + " "
                            + listed.values().stream().map(v -> v.path("revision").asText()).toList());
                }
            }
            assertTrue(wrong.isEmpty(), "walks that listed a released lease or missed the held one: " + wrong);
        }
    }

    /**
     * Property: a walk misses no lease held for the whole walk. Attack: a mirror that
     * keeps only recent messages (max_msgs 1: an audit copy of the last change) answers
     * the first page: its one message is all there is after sequence 1, the batch says
     * nothing is pending, and the walk ends without the lease held throughout. A lagging
     * R3 follower ends a walk early the same way (it stays in the direct-get group once
     * 90 % caught up, nats-server jetstream_cluster.go monitorStream).
     *
     * <p>Fails on 4449e9b: some walks list nothing.
     */
    @Test
    void aMirrorThatLagsOrTrimsCannotEndAWalkEarly() throws Exception {
        try (ServiceFixture service = ServiceFixture.start()) {
            WireClient admin = service.client;
            long held = admin.acquire("trimmed-held", "h", 60_000).path("revision").asLong();
            JetStreamManagement jsm = admin.connection().jetStreamManagement();
            jsm.addStream(StreamConfiguration.builder().name("LEASES_LAST").storageType(StorageType.File)
                    .maxMessages(1).mirror(Mirror.builder().sourceName("KV_leases").build()).build());
            for (int i = 0; i < 5; i++) {
                long other = admin.acquire("trimmed-other", "o", 60_000).path("revision").asLong();
                admin.release("trimmed-other", "o", other);
            }
            long last = jsm.getStreamInfo("KV_leases").getStreamState().getLastSequence();
            Polling.until(Duration.ofSeconds(10), "the mirror to catch up",
                    () -> uncheckedLastSequence(jsm, "LEASES_LAST"), seq -> seq >= last);

            List<String> wrong = new ArrayList<>();
            for (int walk = 0; walk < 20; walk++) {
                Map<String, JsonNode> listed = OperatorSubjectsAcceptanceTest.leases(
                        OperatorSubjectsAcceptanceTest.walk(admin, "trimmed-", 1000));
                if (!listed.containsKey("trimmed-held")
                        || listed.get("trimmed-held").path("revision").asLong() != held) {
                    wrong.add("walk " + walk + ": " + listed.keySet());
                }
            }
            assertTrue(wrong.isEmpty(), "walks that missed a lease held throughout: " + wrong);
        }
    }

    private static long uncheckedLastSequence(JetStreamManagement jsm, String stream) {
        try {
            return jsm.getStreamInfo(stream).getStreamState().getLastSequence();
        } catch (Exception notYet) {
            return -1;
        }
    }
}
