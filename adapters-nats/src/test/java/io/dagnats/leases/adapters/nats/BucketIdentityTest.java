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
