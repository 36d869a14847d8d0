package io.dagnats.leases.adapters.nats;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * What this instance has seen of the {@code leases} bucket, one look after another, and what
 * follows from it (ADR-026): whether the bucket may serve at all, from when it may grant free
 * keys, and where a bucket this instance creates must start. Pure: {@link LeaseBucket} feeds it
 * one look at a time, on its provisioner thread only.
 */
final class BucketHistory {

    /**
     * Sequences a bucket may have taken between two looks (2 s apart) that this instance did
     * not see: far more than any write rate JetStream sustains.
     */
    static final long UNSEEN_WRITES = 1_000_000_000L;

    /** One look's verdict: a reason to refuse the bucket, or from when it may grant free keys. */
    record Verdict(Optional<String> refusal, Optional<Instant> grantsFrom) {
    }

    private BucketIdentity lastIdentity;
    private long lastObservedLastSequence;
    /** The last look showed the last sequence below {@link #lastObservedLastSequence}: one more confirms it. */
    private boolean wentBackOnce;
    /** The highest sequence known to have been in this bucket or any earlier one this instance used. */
    private long confirmedHighest;
    private Optional<Instant> grantsFrom = Optional.empty();
    private BucketIdentity refused;
    private String refusedReason;

    /** Whether this instance has seen a bucket before: a bucket it creates now replaces one. */
    boolean knewABucket() {
        return lastIdentity != null;
    }

    /**
     * One look at the bucket: its identity, its last sequence, and the highest sequence requests
     * saw since the previous look (which bucket answered them is not confirmed).
     */
    Verdict look(BucketIdentity identity, long lastSequence, long seenSinceLastLook) {
        if (identity.equals(lastIdentity)) {
            if (lastSequence < lastObservedLastSequence && !identity.equals(refused)) {
                if (wentBackOnce) {
                    refuse(identity, "its last sequence went back from " + lastObservedLastSequence + " to "
                            + lastSequence + " on two looks in a row (restored from a backup?), so the fences in"
                            + " between would be handed out again");
                } else {
                    // A new stream leader may briefly report less: only a second look in a row confirms it.
                    wentBackOnce = true;
                    confirmedHighest = Math.max(confirmedHighest, seenSinceLastLook);
                    return verdict(identity);
                }
            }
            wentBackOnce = false;
            confirmedHighest = Math.max(confirmedHighest, Math.max(seenSinceLastLook, lastSequence));
            if (identity.grantsFrom().isPresent()) {
                // Recorded since the last look (by an instance that knew the bucket before): honoured
                // now; never shortened by a later edit.
                grantsFrom = Optional.of(later(grantsFrom, identity.grantsFrom().get()));
            }
        } else {
            // Sequences seen since the last look may be the old bucket's or this one's: not counted.
            if (identity.copiedFrom().isPresent()) {
                // Known whether or not this instance saw the original: its metadata names another creation.
                refuse(identity, "it was created (" + identity.created() + ") from a copy of the configuration of the"
                        + " bucket dagnats created at " + identity.copiedFrom().get() + " (" + BucketIdentity.CREATED_METADATA
                        + "), first sequence " + identity.firstSequence() + " included, so the fences that bucket"
                        + " handed out would be handed out again");
            } else if (lastIdentity != null && identity.firstSequence() <= confirmedHighest) {
                refuse(identity, "it was recreated (created " + identity.created() + ") with first sequence "
                        + identity.firstSequence() + ", at or below sequence " + confirmedHighest
                        + " of the bucket before it, so fences would be handed out again");
            }
            grantsFrom = identity.grantsFrom();
            if (lastIdentity != null) {
                // It replaced a bucket this instance used: that bucket's owners may act until their deadlines.
                grantsFrom = Optional.of(later(grantsFrom, ReplacementGrace.graceEnd(identity.created())));
            }
            confirmedHighest = Math.max(confirmedHighest, lastSequence);
            lastIdentity = identity;
            wentBackOnce = false;
        }
        lastObservedLastSequence = lastSequence;
        return verdict(identity);
    }

    /**
     * The grace end to record in the metadata of the bucket just looked at ({@code seen}, as that
     * look read it): this instance's own, when the metadata records none or an earlier one. A
     * replacement made by an instance that never saw the old bucket has none, while instances
     * that knew it withhold grants; recorded, every instance honours it from its next look. Every
     * knowing instance computes the same end from the creation time, so they do not take turns.
     */
    Optional<Instant> graceToRecord(BucketIdentity seen) {
        if (!seen.equals(lastIdentity) || seen.equals(refused) || grantsFrom.isEmpty()) {
            return Optional.empty();
        }
        if (seen.grantsFrom().isPresent() && !seen.grantsFrom().get().isBefore(grantsFrom.get())) {
            return Optional.empty();
        }
        return grantsFrom;
    }

    private Verdict verdict(BucketIdentity identity) {
        if (identity.equals(refused)) {
            return new Verdict(Optional.of(refusedReason), Optional.empty());
        }
        return new Verdict(Optional.empty(), grantsFrom);
    }

    /**
     * The first sequence of a bucket this instance creates at {@code now}: the wall clock in
     * microseconds since the epoch, and above every sequence this instance has seen by
     * {@link #UNSEEN_WRITES}, for the writes the old bucket may have taken since the last look.
     * An earlier bucket created the same way would have had to take more than a million writes
     * a second for its whole life to reach it; and it stays below 2^53 (exact in JSON) until 2255.
     *
     * @param seenSinceLastLook the highest sequence requests saw since the last look
     */
    long firstSequenceForNewBucket(Instant now, long seenSinceLastLook) {
        long micros = ChronoUnit.MICROS.between(Instant.EPOCH, now);
        long seen = Math.max(confirmedHighest, Math.max(seenSinceLastLook, lastObservedLastSequence));
        return Math.max(micros, seen + 1 + UNSEEN_WRITES);
    }

    private static Instant later(Optional<Instant> a, Instant b) {
        return a.isPresent() && a.get().isAfter(b) ? a.get() : b;
    }

    /**
     * A write into {@code identity} was acknowledged at or below a sequence already confirmed in
     * it ({@code evidence}): its sequences went back, whatever the looks show (writes between two
     * looks can carry the last sequence back above the earlier look's). Refused at once, for good.
     */
    void rolledBack(BucketIdentity identity, String evidence) {
        refuse(identity, rollbackReason(evidence));
    }

    /** Why a bucket whose sequences went back ({@code evidence}) is refused, as its refusal says it. */
    static String rolledBackRefusal(String evidence) {
        return refusal(rollbackReason(evidence));
    }

    private static String rollbackReason(String evidence) {
        return "its sequences went back (" + evidence + "; restored from a backup?), so the fences in between"
                + " would be handed out again";
    }

    private void refuse(BucketIdentity identity, String why) {
        refused = identity;
        refusedReason = refusal(why);
    }

    private static String refusal(String why) {
        return "the bucket " + Subjects.BUCKET + " cannot serve leases safely: " + why
                + "; delete it and let dagnats create it (dagnats starts a bucket above every earlier fence)";
    }
}
