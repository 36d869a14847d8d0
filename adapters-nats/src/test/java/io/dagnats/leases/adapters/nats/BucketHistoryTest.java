package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What follows from a run of looks at the bucket: refusals, grace periods, and where a new bucket starts. */
class BucketHistoryTest {

    private static final Instant OLD_CREATED = Instant.parse("2026-11-30T12:00:00Z");
    private static final Instant NEW_CREATED = Instant.parse("2026-11-30T13:00:00Z");
    private static final long OLD_FIRST = 1_796_000_000_000_000L;
    private static final long NEW_FIRST = 1_796_010_000_000_000L;

    private final BucketHistory history = new BucketHistory();

    private static BucketIdentity created(Instant at, long first, Map<String, String> extra) {
        Map<String, String> metadata = new HashMap<>(extra);
        metadata.put(BucketIdentity.FENCES_METADATA, Long.toString(first));
        return BucketIdentity.of(at, first, metadata);
    }

    private static final BucketIdentity OLD = created(OLD_CREATED, OLD_FIRST, Map.of());
    private static final BucketIdentity NEW = created(NEW_CREATED, NEW_FIRST, Map.of());

    @Test
    void theGraceIsTheLongestLeaseItsSafetyMarginAndTheClockOffset() {
        assertEquals(Duration.ofSeconds(600).plusMillis(6_000 + 100).plusSeconds(1), ReplacementGrace.GRACE);
    }

    /** Refused even by an instance that never saw the original: the copy's metadata names it. */
    @Test
    void aCopyOfABucketsConfigurationIsRefusedAtTheFirstLook() {
        BucketIdentity copy = created(NEW_CREATED, OLD_FIRST, Map.of(BucketIdentity.CREATED_METADATA, OLD_CREATED.toString()));

        Optional<String> refusal = history.look(copy, OLD_FIRST, 0).refusal();

        assertTrue(refusal.isPresent());
        assertTrue(refusal.get().contains("copy") && refusal.get().contains("first sequence"), refusal.get());
    }

    @Test
    void aFirstBucketHasNoGracePeriod() {
        assertEquals(new BucketHistory.Verdict(Optional.empty(), Optional.empty()), history.look(OLD, OLD_FIRST + 5, 0));
    }

    @Test
    void aBucketThatReplacedOneThisInstanceKnewGrantsNothingUntilTheGraceEnds() {
        history.look(OLD, OLD_FIRST + 5, 0);

        BucketHistory.Verdict verdict = history.look(NEW, 0, 0);

        assertEquals(Optional.empty(), verdict.refusal());
        assertEquals(Optional.of(NEW_CREATED.plus(ReplacementGrace.GRACE)), verdict.grantsFrom());
        assertEquals(verdict, history.look(NEW, NEW_FIRST + 3, NEW_FIRST + 3), "the same bucket keeps its grace");
    }

    @Test
    void anInstanceThatNeverSawTheOldBucketHonoursTheGraceInTheMetadata() {
        Instant recorded = NEW_CREATED.plus(ReplacementGrace.GRACE).plusMillis(250);
        BucketIdentity replacement = created(NEW_CREATED, NEW_FIRST,
                Map.of(BucketIdentity.GRANTS_FROM_METADATA, recorded.toString()));

        assertEquals(Optional.of(recorded), history.look(replacement, 0, 0).grantsFrom());
    }

    @Test
    void theLaterOfTheRecordedAndTheInstancesOwnGraceEndHolds() {
        history.look(OLD, OLD_FIRST + 5, 0);
        BucketIdentity replacement = created(NEW_CREATED, NEW_FIRST,
                Map.of(BucketIdentity.GRANTS_FROM_METADATA, NEW_CREATED.plusSeconds(1).toString()));

        assertEquals(Optional.of(NEW_CREATED.plus(ReplacementGrace.GRACE)), history.look(replacement, 0, 0).grantsFrom());
    }

    @Test
    void anUnreadableRecordedGraceEndIsTheLongestGraceFromTheCreation() {
        BucketIdentity replacement = created(NEW_CREATED, NEW_FIRST, Map.of(BucketIdentity.GRANTS_FROM_METADATA, "soon"));

        assertEquals(Optional.of(NEW_CREATED.plus(ReplacementGrace.GRACE)), history.look(replacement, 0, 0).grantsFrom());
    }

    @Test
    void oneLookWithTheLastSequenceGoneBackIsNotEnoughToRefuse() {
        history.look(OLD, OLD_FIRST + 100, 0);

        assertEquals(Optional.empty(), history.look(OLD, OLD_FIRST + 40, 0).refusal(), "a new leader, briefly behind");
        assertEquals(Optional.empty(), history.look(OLD, OLD_FIRST + 100, 0).refusal());
        assertEquals(Optional.empty(), history.look(OLD, OLD_FIRST + 40, 0).refusal(), "again only once in a row");
        assertEquals(Optional.empty(), history.look(OLD, OLD_FIRST + 120, 0).refusal());
    }

    @Test
    void twoLooksInARowWithTheLastSequenceGoneBackRefuseTheBucketForGood() {
        history.look(OLD, OLD_FIRST + 100, 0);
        history.look(OLD, OLD_FIRST + 40, 0);

        Optional<String> refusal = history.look(OLD, OLD_FIRST + 41, 0).refusal();

        assertTrue(refusal.isPresent() && refusal.get().contains("went back from " + (OLD_FIRST + 100)), refusal.toString());
        assertEquals(refusal, history.look(OLD, OLD_FIRST + 500, 0).refusal(), "refused until deleted");
    }

    /** Writes between two looks can carry the last sequence back above the earlier look's: an ack shows it at once. */
    @Test
    void aWriteAcknowledgedAtOrBelowAConfirmedSequenceRefusesTheBucketAtOnceAndForGood() {
        history.look(OLD, OLD_FIRST + 100, 0);

        history.rolledBack(OLD, "a write sent after sequence " + (OLD_FIRST + 100) + " was confirmed was acknowledged at "
                + (OLD_FIRST + 60));

        Optional<String> refusal = history.look(OLD, OLD_FIRST + 120, 0).refusal();
        assertTrue(refusal.isPresent() && refusal.get().contains("acknowledged at " + (OLD_FIRST + 60)), refusal.toString());
        assertTrue(refusal.get().contains("delete it and let dagnats create it"), refusal.get());
        assertEquals(refusal, history.look(OLD, OLD_FIRST + 500, 0).refusal(), "refused until deleted");
        assertEquals(Optional.empty(), history.look(NEW, 0, 0).refusal(), "a bucket created after it is judged afresh");
    }

    /** Before, the edit read as a new bucket at or below the sequences confirmed, refused for good. */
    @Test
    void anOperatorsMetadataEditIsNotANewBucket() {
        history.look(OLD, OLD_FIRST + 100, 0);
        BucketIdentity edited = created(OLD_CREATED, OLD_FIRST,
                Map.of(BucketIdentity.GRANTS_FROM_METADATA, OLD_CREATED.plusSeconds(60).toString()));

        assertEquals(Optional.empty(), history.look(edited, OLD_FIRST + 110, 0).refusal());
        assertEquals(Optional.empty(), history.look(edited, OLD_FIRST + 120, 0).refusal());
    }

    /** A replacement made by an instance that never saw the old bucket carries no grace end: a knowing one records it. */
    @Test
    void anInstanceThatKnewTheOldBucketRecordsTheGraceEndAReplacementLacks() {
        history.look(OLD, OLD_FIRST + 5, 0);
        history.look(NEW, 0, 0);

        assertEquals(Optional.of(ReplacementGrace.graceEnd(NEW_CREATED)), history.graceToRecord(NEW));
        BucketIdentity recorded = created(NEW_CREATED, NEW_FIRST,
                Map.of(BucketIdentity.GRANTS_FROM_METADATA, ReplacementGrace.graceEnd(NEW_CREATED).toString()));
        history.look(recorded, NEW_FIRST, 0);
        assertEquals(Optional.empty(), history.graceToRecord(recorded), "recorded already");
    }

    @Test
    void anInstanceThatNeverSawTheOldBucketRecordsNothing() {
        history.look(NEW, 0, 0);

        assertEquals(Optional.empty(), history.graceToRecord(NEW));
    }

    /** The grace end another instance recorded after this one judged the bucket holds from the next look. */
    @Test
    void aGraceEndRecordedAfterTheFirstLookIsHonouredFromTheNextLook() {
        assertEquals(Optional.empty(), history.look(NEW, 0, 0).grantsFrom());
        Instant recorded = ReplacementGrace.graceEnd(NEW_CREATED);
        BucketIdentity edited = created(NEW_CREATED, NEW_FIRST, Map.of(BucketIdentity.GRANTS_FROM_METADATA, recorded.toString()));

        assertEquals(Optional.of(recorded), history.look(edited, NEW_FIRST, 0).grantsFrom());
        assertEquals(Optional.of(recorded), history.look(NEW, NEW_FIRST, 0).grantsFrom(), "never shortened by an edit");
    }

    @Test
    void aReplacementStartingAtOrBelowAnOldFenceIsRefused() {
        history.look(OLD, OLD_FIRST + 100, 0);

        Optional<String> refusal = history.look(BucketIdentity.of(NEW_CREATED, 1, Map.of()), 0, 0).refusal();

        assertTrue(refusal.isPresent() && refusal.get().contains("first sequence 1"), refusal.toString());
    }

    @Test
    void aNewBucketStartsAboveEverySequenceSeenBySlackForUnseenWrites() {
        Instant longAgo = Instant.parse("1970-01-02T00:00:00Z");
        history.look(OLD, OLD_FIRST + 100, 0);

        assertEquals(OLD_FIRST + 100 + 1 + BucketHistory.UNSEEN_WRITES, history.firstSequenceForNewBucket(longAgo, 0),
                "a clock far behind does not matter");
        assertEquals(OLD_FIRST + 200 + 1 + BucketHistory.UNSEEN_WRITES,
                history.firstSequenceForNewBucket(longAgo, OLD_FIRST + 200), "nor do writes seen since the last look");
        assertEquals(NEW_CREATED.toEpochMilli() * 1_000, history.firstSequenceForNewBucket(NEW_CREATED, 0),
                "a clock ahead of every fence: its microseconds");
    }
}
