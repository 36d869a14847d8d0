package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which buckets' fences may be trusted never to repeat an earlier bucket's. */
class BucketIdentityTest {

    private static final Instant CREATED = Instant.parse("2026-11-30T12:00:00Z");

    @Test
    void aBucketDagnatsCreatedSaysSoInItsMetadata() {
        BucketIdentity identity = BucketIdentity.of(CREATED, 1_796_000_000_000_000L,
                Map.of(BucketIdentity.FENCES_METADATA, "1796000000000000"));

        assertTrue(identity.fencesNeverRepeat());
        assertTrue(identity.forStore().neverRepeats());
    }

    /**
     * Issue 21: a stream created from a copy of the bucket's configuration carries its first sequence
     * and metadata, and so the creation time dagnats recorded there, which is not its own.
     */
    @Test
    void aCopyOfABucketsConfigurationIsToldApartByTheCreationTimeItRecords() {
        Map<String, String> metadata = Map.of(BucketIdentity.FENCES_METADATA, "1796000000000000",
                BucketIdentity.CREATED_METADATA, CREATED.toString());

        BucketIdentity original = BucketIdentity.of(CREATED.plusNanos(123), 1_796_000_000_000_000L, metadata);
        BucketIdentity copy = BucketIdentity.of(CREATED.plusSeconds(90), 1_796_000_000_000_000L, metadata);

        assertTrue(original.fencesNeverRepeat(), "its own creation time, to the millisecond");
        assertEquals(Optional.empty(), original.copiedFrom());
        assertFalse(original.needsCreationStamp(metadata));
        assertFalse(copy.fencesNeverRepeat());
        assertFalse(copy.forStore().neverRepeats());
        assertEquals(Optional.of(CREATED), copy.copiedFrom());
    }

    @Test
    void aBucketDagnatsCreatedWithoutACreationStampGetsOne() {
        Map<String, String> metadata = Map.of(BucketIdentity.FENCES_METADATA, "1796000000000000");

        assertTrue(BucketIdentity.of(CREATED, 1_796_000_000_000_000L, metadata).needsCreationStamp(metadata));
        assertFalse(BucketIdentity.of(CREATED, 1, Map.of()).needsCreationStamp(Map.of()), "made elsewhere: no claim to stamp");
    }

    @Test
    void aBucketMadeElsewhereMayRepeatFences() {
        BucketIdentity identity = BucketIdentity.of(CREATED, 0, Map.of());

        assertFalse(identity.fencesNeverRepeat());
        assertEquals(1, identity.firstSequence());
    }

    @Test
    void metadataCopiedOntoAStreamWithAnotherFirstSequenceIsNotTrusted() {
        BucketIdentity identity = BucketIdentity.of(CREATED, 1, Map.of(BucketIdentity.FENCES_METADATA, "1796000000000000"));

        assertFalse(identity.fencesNeverRepeat());
    }

    @Test
    void theGraceEndDagnatsRecordedIsRead() {
        BucketIdentity identity = BucketIdentity.of(CREATED, 5,
                Map.of(BucketIdentity.GRANTS_FROM_METADATA, "2026-11-30T12:10:07.100Z"));

        assertEquals(Optional.of(Instant.parse("2026-11-30T12:10:07.100Z")), identity.grantsFrom());
        assertEquals(Optional.empty(), BucketIdentity.of(CREATED, 5, Map.of()).grantsFrom());
    }

    @Test
    void aRecreatedBucketIsAnotherIdentityEvenWithTheSameSettings() {
        Map<String, String> metadata = Map.of(BucketIdentity.FENCES_METADATA, "5");

        assertNotEquals(BucketIdentity.of(CREATED, 5, metadata).forStore(),
                BucketIdentity.of(CREATED.plusMillis(1), 5, metadata).forStore());
    }

    /** An operator's metadata edit does not make another bucket: only the creation time and first sequence do. */
    @Test
    void aMetadataEditIsTheSameBucket() {
        BucketIdentity before = BucketIdentity.of(CREATED, 5, Map.of(BucketIdentity.FENCES_METADATA, "5"));
        BucketIdentity edited = BucketIdentity.of(CREATED, 5, Map.of(BucketIdentity.FENCES_METADATA, "5",
                BucketIdentity.GRANTS_FROM_METADATA, "2026-11-30T12:10:07.100Z", "owner", "team-a"));
        BucketIdentity stripped = BucketIdentity.of(CREATED, 5, Map.of());

        assertEquals(before, edited);
        assertEquals(before.hashCode(), edited.hashCode());
        assertEquals(before, stripped);
        assertNotEquals(before, BucketIdentity.of(CREATED, 6, Map.of(BucketIdentity.FENCES_METADATA, "6")));
    }
}
