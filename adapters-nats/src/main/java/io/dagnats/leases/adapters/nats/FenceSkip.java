package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.Tenure;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.PurgeOptions;
import io.nats.client.api.StreamInfo;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Makes the bucket's next revisions start above every revision issued before its stream went back
 * (ADR-037), as a recreated bucket's first sequence does (ADR-026 rule 1): a purge of the whole
 * stream up to a sequence above its last ({@code $JS.API.STREAM.PURGE.KV_leases} with {@code seq}),
 * after which the next write gets that sequence (nats-server 2.15 compacts beyond the last; it
 * survives a restart). The purge frees every key while old owners may act until their deadlines,
 * so it runs in two steps on the provisioner thread, inside {@link LeaseBucket#provision()}:
 * <ol>
 *   <li><b>Hold.</b> A grace end {@link GraceHold#HOLD} ahead is recorded in the stream metadata
 *       ({@code dagnats.grants-from}, ADR-026 rule 6): every instance withholds every put (grant or
 *       renewal) from its next look, this one at once.</li>
 *   <li><b>Scan, then purge</b>, at the first look once {@link #HONOURED} has passed: every instance
 *       has looked since the hold (looks run every 2 s, and take at most the JetStream timeout), so
 *       no lease's TTL can grow any more. The longest TTL among the leases is read through the
 *       stream leader (the hold pushed on while the scan runs long), the grace end is pushed to
 *       the end of that TTL (a grace end is only ever lengthened, and every instance honours the
 *       longer one from its next look, before the hold runs out), and the stream is purged.</li>
 * </ol>
 * Requests only hand in a {@link RollbackProof}. At most one skip per grace; one that fails is
 * logged and tried again at the next proof.
 */
final class FenceSkip {

    private static final System.Logger LOG = System.getLogger(LogNames.BUCKET);
    /**
     * After the hold is recorded: every instance has either looked since (and serves the hold) or
     * withholds puts because it has not looked for {@link ServedBucket#UNLOOKED}, and a write it sent
     * before that has landed (2 s).
     */
    static final Duration HONOURED = ServedBucket.UNLOOKED.plusSeconds(2);

    /** A hold recorded for {@code proof}: puts are withheld until {@code until}; scan from {@code scanAt}. */
    private record Holding(RollbackProof proof, Instant until, Instant scanAt) {
    }

    private final AtomicReference<RollbackProof> proven = new AtomicReference<>();
    /** The grace end of the last skip done: no other until then. Only the provisioner thread writes it. */
    private volatile Instant lastGraceEnd = Instant.MIN;
    /** The hold in progress; only the provisioner thread touches it. */
    private Holding holding;

    /** Hands in a proof; the first of a rollback logs one line. Whether a skip is now due. */
    boolean prove(RollbackProof proof, Instant now) {
        if (now.isBefore(lastGraceEnd) || !proven.compareAndSet(null, proof)) {
            return false;
        }
        LOG.log(System.Logger.Level.ERROR, "dagnats: the leases bucket went back (" + proof.evidence()
                + "; a crash lost acknowledged writes, or its files were restored from a copy): answered lost, the"
                + " memory of known leases is off, and its next revisions will start above every one issued before");
        return true;
    }

    boolean due() {
        return holding != null || proven.get() != null;
    }

    /**
     * The grace a skip needs after its scan: the longest TTL among the leases in the stream and the
     * presented renew's, its holders' safety margin, and the clock offset bound. Leases lost in the
     * rollback are free in the stream already, so a longer grace would not protect them.
     */
    static Duration grace(Optional<Duration> longestPresent, Optional<LeaseTtl> presented) {
        long millis = Math.max(longestPresent.map(Duration::toMillis).orElse(0L),
                presented.map(LeaseTtl::millis).orElse(0L));
        long seconds = Math.min(LeaseTtl.MAX_MILLIS, Math.max(LeaseTtl.MIN_MILLIS, millis) + 999) / 1000;
        LeaseTtl longest = LeaseTtl.ofSeconds(seconds);
        return longest.duration().plus(Tenure.safetyMargin(longest)).plus(ReplacementGrace.CLOCK_OFFSET);
    }

    /**
     * Takes the skip due one step further, on the provisioner thread: {@code look} judges the bucket
     * again and returns (and serves) its verdict. Returns the verdict serving afterwards.
     */
    BucketStatus perform(Connection connection, MetadataRecords metadata, Clock clock, long highestConfirmed,
            Supplier<BucketStatus> look, BucketStatus current) {
        Instant now = clock.instant();
        if (holding == null) {
            RollbackProof proof = proven.getAndSet(null);
            return proof == null ? current : hold(connection, metadata, now, proof, look, current);
        }
        if (now.isBefore(holding.scanAt())) {
            return current;
        }
        Holding held = holding;
        holding = null;
        return scanAndPurge(connection, metadata, clock, held, highestConfirmed, look, current);
    }

    private BucketStatus hold(Connection connection, MetadataRecords metadata, Instant now, RollbackProof proof,
            Supplier<BucketStatus> look, BucketStatus current) {
        try {
            JetStreamManagement management = connection.jetStreamManagement();
            StreamInfo info = stillBelow(management, proof);
            if (info == null) {
                return current;
            }
            Instant until = now.plus(GraceHold.HOLD).truncatedTo(ChronoUnit.MILLIS).plusMillis(1);
            BucketStatus judged = GraceHold.record(management, metadata, info, until, look);
            if (judged == null) {
                return failed(proof, "its hold could not be recorded and served", current);
            }
            holding = new Holding(proof, until, now.plus(HONOURED));
            LOG.log(System.Logger.Level.WARNING, "dagnats: no lease is granted or renewed until " + until
                    + " while every instance learns that the leases bucket went back");
            return judged;
        } catch (IOException | JetStreamApiException | RuntimeException failure) {
            return failed(proof, String.valueOf(failure.getMessage()), current);
        }
    }

    private BucketStatus scanAndPurge(Connection connection, MetadataRecords metadata, Clock clock, Holding held,
            long highestConfirmed, Supplier<BucketStatus> look, BucketStatus current) {
        RollbackProof proof = held.proof();
        try {
            JetStreamManagement management = connection.jetStreamManagement();
            StreamInfo info = stillBelow(management, proof);
            if (info == null) {
                return current;
            }
            GraceHold hold = new GraceHold(management, metadata, info, look, clock, held.until());
            Optional<Duration> longest = TtlScan.longest(connection, info.getStreamState().getLastSequence(), hold);
            if (!hold.keep()) {
                return failed(proof, "its hold could not be kept while it scanned", current);
            }
            if (stillBelow(management, proof) == null) {
                return current; // another instance skipped while this one scanned
            }
            Instant scanned = clock.instant();
            Instant graceEnd = scanned.plus(grace(longest, proof.ttl())).truncatedTo(ChronoUnit.MILLIS).plusMillis(1);
            if (graceEnd.isAfter(hold.until())) {
                // Recorded while the hold still runs (keep() left it GraceHold.BEFORE_HOLD_ENDS at least): every
                // instance learns the longer end at its next look, before the hold it honours runs out.
                if (GraceHold.record(management, metadata, info, graceEnd, look) == null) {
                    return failed(proof, "its grace end could not be recorded and served", current);
                }
            } else {
                graceEnd = hold.until();
            }
            long next = proof.skipTo(highestConfirmed);
            management.purgeStream(Subjects.STREAM, PurgeOptions.builder().sequence(next).build());
            lastGraceEnd = graceEnd;
            LOG.log(System.Logger.Level.WARNING, "dagnats: purged the leases bucket so that its next revision is "
                    + next + ", above every one issued before it went back; no free key is granted until " + graceEnd);
            return look.get();
        } catch (IOException | JetStreamApiException | RuntimeException failure) {
            return failed(proof, String.valueOf(failure.getMessage()), current);
        }
    }

    /** The stream as it is, if it is the proof's bucket and still ends below the presented revision; else null. */
    private static StreamInfo stillBelow(JetStreamManagement management, RollbackProof proof)
            throws IOException, JetStreamApiException {
        StreamInfo info = BucketStream.find(management);
        boolean due = info != null && sameBucket(info, proof)
                && RollbackProof.proves(proof.presented(), info.getStreamState().getLastSequence());
        return due ? info : null; // skipped already (by another instance), or the bucket changed: nothing to do
    }

    private static BucketStatus failed(RollbackProof proof, String why, BucketStatus current) {
        LOG.log(System.Logger.Level.ERROR, "dagnats: could not make the leases bucket's revisions start above "
                + proof.presented() + " (" + why + "); tried again at the next proof, calls answer lost meanwhile");
        return current;
    }

    private static boolean sameBucket(StreamInfo info, RollbackProof proof) {
        return BucketIdentity.of(info.getCreateTime().toInstant(), info.getConfiguration().getFirstSequence(),
                info.getConfiguration().getMetadata()).equals(proof.identity());
    }
}
