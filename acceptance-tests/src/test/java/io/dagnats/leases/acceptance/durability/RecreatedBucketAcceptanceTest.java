package io.dagnats.leases.acceptance.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.bootstrap.DagnatsServer;
import io.dagnats.leases.bootstrap.Settings;
import io.nats.client.JetStreamManagement;
import io.nats.client.api.MessageInfo;
import io.nats.client.api.StreamConfiguration;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A fence is never handed out twice, even when the {@code leases} bucket is
 * deleted and recreated under a running service: nothing the service
 * remembers of the old bucket lets an old revision renew or release.
 */
class RecreatedBucketAcceptanceTest extends BucketRecreation {

    @Test
    void anOldRevisionCannotRenewALeaseInABucketSomeoneElseRecreated() throws Exception {
        oldRevisionAfterRecreationByHand("renew");
    }

    @Test
    void anOldRevisionCannotReleaseALeaseInABucketSomeoneElseRecreated() throws Exception {
        oldRevisionAfterRecreationByHand("release");
    }

    /**
     * h1 holds a lease this instance remembers; the bucket is recreated by hand and h2's lease
     * is written into it as another dagnats instance would (this one never sees that write).
     */
    private void oldRevisionAfterRecreationByHand(String operation) throws Exception {
        String key = "k-" + UUID.randomUUID();
        long old = client.acquire(key, "h1", 30_000).path("revision").asLong();

        recreateByHand(1);
        // Bring the new bucket's sequence up to the old fence where that takes few writes (it does
        // when the old bucket started at 1), so h2's lease gets the very revision h1 remembers.
        long next = 1;
        while (next < old && old - next < 1_000) {
            writeAsDagnats("filler-" + next, "filler", 0);
            next++;
        }
        long h2s = writeAsDagnats(key, "h2", 0);

        JsonNode reply = operation.equals("renew") ? client.renew(key, "h1", old) : client.release(key, "h1", old);

        assertRefused(reply);
        MessageInfo last = lastMessage(key);
        assertEquals(h2s, last.getSeq(), "h2's lease must still be the key's last write");
        assertTrue(new String(last.getData(), StandardCharsets.UTF_8).contains("\"h2\""));
    }

    /** The issue's own case: both buckets made elsewhere, so both start at 1 and revision 1 exists twice. */
    @Test
    void anOldRevisionCannotRenewOrReleaseWhenBothBucketsWereMadeElsewhere() throws Exception {
        try (NatsServerProcess nats = NatsServerProcess.modern();
                WireClient admin = new WireClient(nats.url())) {
            JetStreamManagement management = admin.connection().jetStreamManagement();
            management.addStream(BucketSettingsAcceptanceTest.safeBucket().build());
            try (DagnatsServer dagnats = DagnatsServer.start(Settings.forUrl(nats.url()))) {
                String renewed = "k-" + UUID.randomUUID();
                String released = "k-" + UUID.randomUUID();
                long renewedOld = admin.acquire(renewed, "h1", 30_000).path("revision").asLong();
                long releasedOld = admin.acquire(released, "h1", 30_000).path("revision").asLong();

                management.deleteStream("KV_leases");
                management.addStream(BucketSettingsAcceptanceTest.safeBucket().build());
                long h2sRenewed = writeAsDagnats(admin, renewed, "h2", 0);
                long h2sReleased = writeAsDagnats(admin, released, "h2", 0);
                assertEquals(renewedOld, h2sRenewed, "the same revision, handed out twice");
                assertEquals(releasedOld, h2sReleased, "the same revision, handed out twice");

                assertRefused(admin.renew(renewed, "h1", renewedOld));
                assertRefused(admin.release(released, "h1", releasedOld));
                assertEquals(h2sRenewed, management.getLastMessage("KV_leases", "$KV.leases." + renewed).getSeq());
                assertEquals(h2sReleased, management.getLastMessage("KV_leases", "$KV.leases." + released).getSeq());
            }
        }
    }

    @Test
    void aBucketRecreatedBySomeoneElseBelowFencesAlreadyHandedOutAnswersUnsupported() throws Exception {
        String key = "k-" + UUID.randomUUID();
        client.acquire(key, "h1", 30_000);

        recreateByHand(1);

        JsonNode reply = Polling.until(Duration.ofSeconds(15), "acquire to answer unsupported",
                () -> client.acquire("k-" + UUID.randomUUID(), "h2", 30_000),
                answer -> "unsupported".equals(answer.path("kind").asText()));
        assertTrue(reply.path("error").asText().contains("first sequence"), reply.toString());
        assertFalse(reply.path("granted").asBoolean());
    }

    /**
     * The service recreates the bucket above every old fence, but grants no free key during the
     * grace period: h1 may act as owner until its deadline, so h2 must wait (it used to be
     * granted within a second, while h1's 30 s lease was live).
     */
    @Test
    void aBucketDeletedUnderTheServiceIsRecreatedWithFencesAboveEveryOldOneAndGrantsNothingDuringTheGrace()
            throws Exception {
        String key = "k-" + UUID.randomUUID();
        long acquired = client.acquire(key, "h1", 30_000).path("revision").asLong();
        long old = client.renew(key, "h1", acquired).path("revision").asLong();

        management().deleteStream("KV_leases");
        JsonNode probe = Polling.until(Duration.ofSeconds(15), "the service to serve the recreated bucket",
                () -> client.acquire("probe-" + UUID.randomUUID(), "probe", 30_000),
                answer -> answer.path("error").asText().contains("no free key is granted until"));

        assertEquals("unavailable", probe.path("kind").asText(), probe.toString());
        assertFalse(probe.path("granted").asBoolean(), probe.toString());
        StreamConfiguration recreated = management().getStreamInfo("KV_leases").getConfiguration();
        assertTrue(recreated.getFirstSequence() > old, "first sequence " + recreated.getFirstSequence());
        assertEquals("lost", client.renew(key, "h1", old).path("kind").asText());
        assertEquals("lost", client.release(key, "h1", acquired).path("kind").asText());

        JsonNode h2s = client.acquire(key, "h2", 30_000);
        assertFalse(h2s.path("granted").asBoolean(), h2s.toString());
        assertEquals("unavailable", h2s.path("kind").asText(), h2s.toString());
        assertRefused(client.renew(key, "h1", old));
        assertRefused(client.release(key, "h1", old));
        assertFalse(client.owner(key).path("holder").asText().equals("h2"));
    }

    /**
     * Another instance replaced the bucket since this one last looked (every 2 s): its replacement
     * starts at least 10^9 above every sequence seen. A write this instance sends lands in the
     * replacement; its ack, far above anything confirmed in the bucket judged ready, must not be
     * answered as a grant: the answer is unavailable, and the bucket is judged again at once.
     */
    @Test
    void aWriteAnsweredFarAboveTheBucketsSequencesIsNotAGrant() throws Exception {
        long seen = client.acquire("k-" + UUID.randomUUID(), "h0", 30_000).path("revision").asLong();
        recreateByHand(seen + 3 * BILLION);
        String key = "k-" + UUID.randomUUID();

        JsonNode acquired = client.acquire(key, "h", 30_000);

        assertFalse(acquired.path("granted").asBoolean(), acquired.toString());
        assertEquals("unavailable", acquired.path("kind").asText(), acquired.toString());
        assertRefused(client.renew(key, "h", seen + 3 * BILLION));
    }

    @Test
    void aLeaseWrittenByAnotherInstanceIntoARecreatedBucketIsNotOverwrittenByAnOldRevision() throws Exception {
        String key = "k-" + UUID.randomUUID();
        long old = client.acquire(key, "h1", 30_000).path("revision").asLong();

        management().deleteStream("KV_leases");
        // No write through this instance after the recreation: h2's lease may take the bucket's first sequence.
        Polling.until(Duration.ofSeconds(15), "the service to recreate the bucket",
                this::bucketExists, exists -> exists);
        long h2s = writeAsDagnats(key, "h2", 0);

        assertRefused(client.renew(key, "h1", old));
        assertRefused(client.release(key, "h1", old));
        assertTrue(h2s > old, h2s + " must be above " + old);
        assertEquals(h2s, lastMessage(key).getSeq());
    }

    /**
     * Issue 21: the bucket deleted and created again from the configuration its own stream info
     * returned (what {@code nats stream info --json} into {@code nats stream add --config}, a backup
     * restore or a declarative manifest does) starts at dagnats' own first sequence, so a lease written
     * into it (here directly, standing in for any writer the grace period does not stop) gets the very
     * revision h1 held. The owner query that shows h2 at that revision proves the revision was handed
     * out twice: h1's renew and release with it must answer lost, and h2 keep the key (before, the
     * renew answered granted and wrote h1 over h2's lease).
     */
    @Test
    void anOldRevisionCannotRenewOrReleaseInABucketRecreatedFromItsOwnConfiguration() throws Exception {
        String key = "k-" + UUID.randomUUID();
        long old = client.acquire(key, "h1", 30_000).path("revision").asLong();
        StreamConfiguration copied = management().getStreamInfo("KV_leases").getConfiguration();
        assertEquals(copied.getFirstSequence(), old, "h1's lease is the bucket's first write");

        recreateByHand(copied);
        long h2s = writeAsDagnats(key, "h2", 0);
        assertEquals(old, h2s, "the copy hands out h1's revision again");
        JsonNode owner = client.owner(key);
        JsonNode renewed = client.renew(key, "h1", old);
        JsonNode released = client.release(key, "h1", old);

        assertLostUnlessTheCopyWasRefused(renewed, owner);
        assertLostUnlessTheCopyWasRefused(released, owner);
        MessageInfo last = lastMessage(key);
        assertEquals(h2s, last.getSeq(), "h2 must keep the key; owner answered " + owner);
        assertTrue(new String(last.getData(), StandardCharsets.UTF_8).contains("\"h2\""));
    }

    /**
     * The same copy, met by an instance that never saw the original (started after it was made): the
     * creation time dagnats recorded in the original's metadata is not the copy's own, so the copy is
     * refused rather than served with fences that repeat the original's (before, it was served and
     * granted a fresh key at the original's first revision).
     */
    @Test
    void aBucketRecreatedFromItsOwnConfigurationIsRefusedByAnInstanceThatNeverSawTheOriginal() throws Exception {
        long old = client.acquire("k-" + UUID.randomUUID(), "h1", 30_000).path("revision").asLong();
        StreamConfiguration copied = Polling.until(Duration.ofSeconds(10), "the creation time in the bucket's metadata",
                () -> configuration(), configuration -> configuration != null
                        && configuration.getMetadata().containsKey("dagnats.created"));
        service.stopDagnats();
        recreateByHand(copied);

        try (DagnatsServer later = service.startAnother()) {
            JsonNode reply = client.acquire("k-" + UUID.randomUUID(), "h2", 30_000);

            assertEquals("unsupported", reply.path("kind").asText(), reply.toString());
            assertTrue(reply.path("error").asText().contains("copy"), reply.toString());
            assertFalse(reply.path("revision").asLong() == old, reply.toString());
        }
    }
}
