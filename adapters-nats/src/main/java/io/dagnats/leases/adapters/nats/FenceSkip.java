package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.Tenure;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.PurgeOptions;
import io.nats.client.api.MessageGetRequest;
import io.nats.client.api.MessageInfo;
import io.nats.client.api.StreamInfo;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Makes the bucket's next revisions start above every revision issued before its stream went back
 * (ADR-037), as a recreated bucket's first sequence does (ADR-026 rule 1): a purge of the whole
 * stream up to a sequence above its last ({@code $JS.API.STREAM.PURGE.KV_leases} with {@code seq}),
 * after which the next write gets that sequence (nats-server 2.15 compacts beyond the last; it
 * survives a restart). The purge frees every key while old owners may act until their deadlines,
 * so first a grace end is recorded in the stream metadata ({@code dagnats.grants-from}, ADR-026
 * rule 6), which every instance honours from its next look, and this instance looks at once so that
 * it honours it before the purge. Requests only hand in a {@link RollbackProof}; the skip runs on
 * the provisioner thread, inside {@link LeaseBucket#provision()}. At most one skip per grace; one
 * that fails is logged and tried again at the next proof.
 */
final class FenceSkip {

    private static final System.Logger LOG = System.getLogger(LeaseBucket.class.getName());

    private final AtomicReference<RollbackProof> proven = new AtomicReference<>();
    /** The grace end of the last skip done: no other until then. Only the provisioner thread writes it. */
    private volatile Instant lastGraceEnd = Instant.MIN;

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
        return proven.get() != null;
    }

    /**
     * The grace a skip needs: the longest TTL among the leases in the stream and the presented renew's,
     * its holders' safety margin, and the clock offset bound. Leases lost in the rollback are free in
     * the stream already, so a longer grace would not protect them.
     */
    static Duration grace(Optional<Duration> longestPresent, Optional<LeaseTtl> presented) {
        long millis = Math.max(longestPresent.map(Duration::toMillis).orElse(0L),
                presented.map(LeaseTtl::millis).orElse(0L));
        long seconds = Math.min(LeaseTtl.MAX_MILLIS, Math.max(LeaseTtl.MIN_MILLIS, millis) + 999) / 1000;
        LeaseTtl longest = LeaseTtl.ofSeconds(seconds);
        return longest.duration().plus(Tenure.safetyMargin(longest)).plus(BucketHistory.CLOCK_OFFSET);
    }

    /**
     * Does the skip due, on the provisioner thread: {@code look} judges the bucket again and returns
     * (and serves) its verdict. Returns the verdict serving afterwards.
     */
    BucketStatus perform(Connection connection, MetadataRecords metadata, Instant now, long highestConfirmed,
            Supplier<BucketStatus> look, BucketStatus current) {
        RollbackProof proof = proven.getAndSet(null);
        if (proof == null) {
            return current;
        }
        try {
            JetStreamManagement management = connection.jetStreamManagement();
            StreamInfo info = BucketStream.find(management);
            if (info == null || !sameBucket(info, proof)
                    || !RollbackProof.proves(proof.presented(), info.getStreamState().getLastSequence())) {
                return current; // skipped already (by another instance), or the bucket changed: nothing to do
            }
            Instant graceEnd = now.plus(grace(longestTtl(management, info.getStreamState().getLastSequence()),
                    proof.ttl())).truncatedTo(ChronoUnit.MILLIS).plusMillis(1);
            if (!metadata.record(management, info.getConfiguration(), BucketIdentity.GRANTS_FROM_METADATA,
                    graceEnd.toString(), "the grace end of a fence skip")) {
                return failed(proof, "its grace end could not be recorded", current);
            }
            BucketStatus judged = look.get();
            if (!(judged instanceof BucketStatus.Ready ready)
                    || ready.grantsFrom().filter(from -> !from.isBefore(graceEnd)).isEmpty()) {
                return failed(proof, "the bucket did not serve its grace end: " + judged.describe(), judged);
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

    private static BucketStatus failed(RollbackProof proof, String why, BucketStatus current) {
        LOG.log(System.Logger.Level.ERROR, "dagnats: could not make the leases bucket's revisions start above "
                + proof.presented() + " (" + why + "); tried again at the next proof, calls answer lost meanwhile");
        return current;
    }

    private static boolean sameBucket(StreamInfo info, RollbackProof proof) {
        return BucketIdentity.of(info.getCreateTime().toInstant(), info.getConfiguration().getFirstSequence(),
                info.getConfiguration().getMetadata()).equals(proof.identity());
    }

    /** The longest TTL among the leases in the stream up to {@code last}: one leader read per key. */
    private static Optional<Duration> longestTtl(JetStreamManagement management, long last)
            throws IOException, JetStreamApiException {
        Optional<Duration> longest = Optional.empty();
        long next = 1;
        while (next <= last) {
            MessageInfo found;
            try {
                found = management.getMessage(Subjects.STREAM, MessageGetRequest.nextForSubject(next, Subjects.KEY_WILDCARD));
            } catch (JetStreamApiException none) {
                if (none.getApiErrorCode() == JetStreamApiError.NO_MESSAGE_FOUND) {
                    return longest;
                }
                throw none;
            }
            Map<String, String> headers = new HashMap<>();
            if (found.getHeaders() != null) {
                found.getHeaders().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), values.get(0)));
            }
            StoredMessage message = new StoredMessage(found.getSeq(), found.getSubject(), found.getTime().toInstant(),
                    headers, found.getData() == null ? new byte[0] : found.getData());
            if (!message.freesKey()) {
                Optional<Duration> ttl = message.ttl();
                if (ttl.isPresent() && (longest.isEmpty() || ttl.get().compareTo(longest.get()) > 0)) {
                    longest = ttl;
                }
            }
            next = found.getSeq() + 1;
        }
        return longest;
    }
}
