package io.dagnats.leases.acceptance.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.bootstrap.DagnatsServer;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The grace after a bucket is replaced (ADR-026): no new owner is granted while an owner of the
 * deleted bucket could still believe it owns, whichever instance serves the replacement.
 */
class NoGrantDuringARecreatedBucketsGraceAcceptanceTest extends BucketRecreation {

    /**
     * The reviewer's scenario: a owns the key (acquire, then the renew its tenure starts from,
     * TTL 30 s), the bucket is deleted, and b campaigns for the key. a may act as owner until
     * its renew's send time + 30 s less the safety margin, so b must not be granted before then;
     * a's renew learns that it lost.
     */
    @Test
    void aNewOwnerIsNotGrantedWhileTheOwnerOfTheDeletedBucketCouldStillBelieveItOwns() throws Exception {
        String key = "k-" + UUID.randomUUID();
        long acquired = client.acquire(key, "a", 30_000).path("revision").asLong();
        Instant renewSent = Instant.now();
        long aFence = client.renew(key, "a", acquired).path("revision").asLong();
        Instant aDeadline = renewSent.plusMillis(30_000 - 400);

        management().deleteStream("KV_leases");
        // b campaigns as a holder does; before the grace period it was granted within a second.
        JsonNode bs = null;
        long campaignEnd = System.nanoTime() + Duration.ofSeconds(6).toNanos();
        while (System.nanoTime() < campaignEnd) {
            bs = client.acquire(key, "b", 30_000);
            assertFalse(bs.path("granted").asBoolean(),
                    "b granted while a may act as owner until " + aDeadline + ": " + bs);
            Thread.sleep(100);
        }
        assertTrue(bucketExists(), "the service recreates the bucket meanwhile");
        assertEquals("unavailable", bs.path("kind").asText(), bs.toString());
        Instant grantsFrom = statedInstant(bs.path("error").asText());
        assertTrue(grantsFrom.isAfter(aDeadline), grantsFrom + " must be after a's deadline " + aDeadline);

        JsonNode aRenews = Polling.until(Duration.ofSeconds(15), "a's renew to be answered",
                () -> client.renew(key, "a", aFence),
                answer -> !"unavailable".equals(answer.path("kind").asText()));
        assertEquals("lost", aRenews.path("kind").asText(), aRenews.toString());
        assertEquals("lost", client.renew(key, "a", acquired).path("kind").asText());
        JsonNode owner = client.owner(key);
        assertFalse(owner.path("holder").asText().equals("b"), owner.toString());
    }

    /**
     * During its grace no lease in a replacement bucket can be legitimate. One that reaches it
     * anyway (a stale instance, a raw write, a timed-out acquire flushed by a reconnect buffer)
     * may be answered from the record, but it must never turn into ownership: the holder's
     * confirming renew answers unavailable and writes nothing.
     */
    @Test
    void aLeaseWrittenIntoAReplacementDuringItsGraceIsNeverRenewedIntoOwnership() throws Exception {
        client.acquire("k-" + UUID.randomUUID(), "h0", 30_000);
        management().deleteStream("KV_leases");
        Polling.until(Duration.ofSeconds(15), "the service to serve the recreated bucket",
                () -> client.acquire("probe-" + UUID.randomUUID(), "probe", 30_000),
                answer -> answer.path("error").asText().contains("no free key is granted until"));
        String key = "k-" + UUID.randomUUID();
        long raw = writeAsDagnats(key, "h", 0);

        JsonNode acquired = client.acquire(key, "h", 30_000);
        if (acquired.path("granted").asBoolean()) {
            assertEquals(raw, acquired.path("revision").asLong(), acquired.toString());
        }
        JsonNode renewed = client.renew(key, "h", raw);

        assertFalse(renewed.path("renewed").asBoolean(), renewed.toString());
        assertEquals("unavailable", renewed.path("kind").asText(), renewed.toString());
        assertTrue(renewed.path("error").asText().contains("until"), renewed.toString());
        assertEquals(raw, lastMessage(key).getSeq(), "the renew wrote nothing");
    }

    /** A dagnats started after the replacement never saw the old bucket: the bucket's metadata tells it. */
    @Test
    void anInstanceStartedAfterTheReplacementHonoursTheGracePeriodFromTheBucketsMetadata() throws Exception {
        client.acquire("k-" + UUID.randomUUID(), "h1", 30_000);
        management().deleteStream("KV_leases");
        Polling.until(Duration.ofSeconds(15), "the service to recreate the bucket", this::bucketExists, exists -> exists);
        String recorded = management().getStreamInfo("KV_leases").getConfiguration().getMetadata()
                .get("dagnats.grants-from");
        assertTrue(recorded != null && Instant.parse(recorded).isAfter(Instant.now().plusSeconds(590)),
                "grants-from in the metadata: " + recorded);

        service.stopDagnats();
        try (DagnatsServer later = service.startAnother()) {
            JsonNode reply = client.acquire("k-" + UUID.randomUUID(), "h2", 30_000);

            assertFalse(reply.path("granted").asBoolean(), reply.toString());
            assertEquals("unavailable", reply.path("kind").asText(), reply.toString());
            assertGraceEndsAtTheRecordedInstant(Instant.parse(recorded), statedInstant(reply.path("error").asText()));
        }
    }

    /**
     * A replacement made without {@code dagnats.grants-from} (by hand here; likewise by a dagnats that
     * never saw the old bucket): the instance that knew the old bucket records its grace end, so an
     * instance that never saw the old bucket honours it too.
     */
    @Test
    void anInstanceThatKnewTheOldBucketRecordsTheGraceEndAReplacementLacks() throws Exception {
        long seen = client.acquire("k-" + UUID.randomUUID(), "h1", 30_000).path("revision").asLong();
        recreateByHand(seen + 3 * BILLION);
        Instant created = management().getStreamInfo("KV_leases").getCreateTime().toInstant();

        String recorded = Polling.until(Duration.ofSeconds(15), "the service to record the grace end",
                this::recordedGrace, value -> value != null);

        assertTrue(!Instant.parse(recorded).isBefore(created.plusMillis(607_100)), recorded + " for a bucket created " + created);
        service.stopDagnats();
        try (DagnatsServer later = service.startAnother()) {
            JsonNode reply = client.acquire("k-" + UUID.randomUUID(), "h2", 30_000);

            assertEquals("unavailable", reply.path("kind").asText(), reply.toString());
            assertGraceEndsAtTheRecordedInstant(Instant.parse(recorded), statedInstant(reply.path("error").asText()));
        }
    }

    /**
     * An instance honours the later of the recorded end and its own reckoning from the bucket's
     * creation time, rounded up to the millisecond: never earlier than recorded, and no later than
     * a rounding apart.
     */
    private static void assertGraceEndsAtTheRecordedInstant(Instant recorded, Instant stated) {
        assertFalse(stated.isBefore(recorded), "grants resume at " + stated + ", before the recorded " + recorded);
        assertTrue(Duration.between(recorded, stated).toMillis() <= 1_000,
                "grants resume at " + stated + ", well after the recorded " + recorded);
    }

    /** The instant an {@code unavailable} answer says grants resume at. */
    private static Instant statedInstant(String sentence) {
        Matcher instant = Pattern.compile("until (\\d{4}-\\d{2}-\\d{2}T[0-9:.]+Z)").matcher(sentence);
        assertTrue(instant.find(), "no instant in: " + sentence);
        return Instant.parse(instant.group(1));
    }
}
