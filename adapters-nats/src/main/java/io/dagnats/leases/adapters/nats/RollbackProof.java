package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.nats.client.Message;
import io.nats.client.api.ClusterInfo;
import io.nats.client.api.StreamInfo;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * A revision a caller presented for a key, above the last sequence of the bucket's stream as read
 * after the leader read that showed the key below it (ADR-037). A stream's sequences only grow, and
 * the caller was issued that revision by it, so the stream went back: a crash lost writes it had
 * acknowledged, or a copy of its files was restored. A caller can also present a revision the
 * stream never issued; within {@link #BOUND} that is indistinguishable from a rollback (and costs
 * what one costs: every holder a fresh acquire after a grace, never two owners), beyond it no
 * rollback is that large and it proves nothing.
 *
 * @param identity     the bucket whose stream went back
 * @param presented    the revision presented
 * @param lastSequence the stream's last sequence, read after the key was
 * @param ttl          the TTL the renew asked for, if any
 */
record RollbackProof(BucketIdentity identity, LeaseKey key, long presented, long lastSequence, Optional<LeaseTtl> ttl) {

    /** No real rollback loses more writes than this: a revision further above the stream is nonsense. */
    static final long BOUND = BucketHistory.UNSEEN_WRITES;

    RollbackProof {
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(ttl, "ttl");
        if (!proves(presented, lastSequence)) {
            throw new IllegalArgumentException("revision " + presented + " proves nothing against last sequence "
                    + lastSequence);
        }
    }

    /** Whether a revision presented above a last sequence read after it proves the stream went back. */
    static boolean proves(long presented, long lastSequence) {
        return presented > lastSequence && presented - lastSequence <= BOUND;
    }

    /**
     * The proof in the stream info {@code answer} (requested after the key's read), for the bucket
     * {@code ready} judged; empty when it proves nothing, or is not a true reading of that bucket's
     * stream (no answer, an error, another bucket, or a stream without a leader, whose state is empty).
     */
    static CompletionStage<Optional<RollbackProof>> check(CompletionStage<Message> answer, BucketStatus.Ready ready,
            LeaseKey key, long presented, Optional<LeaseTtl> ttl) {
        return answer.thenApply(reply -> read(reply, ready.identity(), key, presented, ttl))
                .exceptionally(noAnswer -> Optional.empty());
    }

    private static Optional<RollbackProof> read(Message reply, BucketIdentity judged, LeaseKey key, long presented,
            Optional<LeaseTtl> ttl) {
        StreamInfo info = new StreamInfo(reply);
        if (info.hasError() || info.getStreamState() == null || info.getCreateTime() == null) {
            return Optional.empty();
        }
        ClusterInfo cluster = info.getClusterInfo();
        if (cluster != null && (cluster.getLeader() == null || cluster.getLeader().isBlank())) {
            return Optional.empty();
        }
        BucketIdentity answered = BucketIdentity.of(info.getCreateTime().toInstant(),
                info.getConfiguration().getFirstSequence(), info.getConfiguration().getMetadata());
        long last = info.getStreamState().getLastSequence();
        if (!answered.equals(judged) || !proves(presented, last)) {
            return Optional.empty();
        }
        return Optional.of(new RollbackProof(judged, key, presented, last, ttl));
    }

    /** One sentence naming the key and both numbers. */
    String evidence() {
        return "lease " + key + " was presented at revision " + presented + ", above the last sequence "
                + lastSequence + " of the stream " + Subjects.STREAM;
    }

    /** Where the bucket's next revisions start: above every revision issued before, with rule 1's slack. */
    long skipTo(long highestConfirmed) {
        return Math.max(presented, highestConfirmed) + 1 + BOUND;
    }
}
