package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.LeaseFailure;
import io.dagnats.leases.application.LeaseStore;
import io.dagnats.leases.domain.AttachedLiveness;
import io.dagnats.leases.domain.AttachedRecord;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.LeaseWrite;
import io.dagnats.leases.protocol.LeaseHeaders;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.impl.Headers;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The lease store on a JetStream KV bucket, spoken in raw JetStream API
 * requests so that every read goes to the stream leader (never a direct get a
 * lagging replica could answer) and every write is a compare-and-set on the
 * key's last subject sequence carrying its own TTL.
 *
 * <p>Each read or write opens one {@link BucketSession}: the bucket verdict it is sent under, and
 * the sequence check every answer passes. The answers are translated once ({@link StoreReplies}),
 * and a lease the store forgot to expire is removed apart ({@link ForgottenExpiry}).
 */
public final class NatsLeaseStore implements LeaseStore {

    private static final byte[] NO_BODY = new byte[0];
    /** The per-message TTL that outlives the stream's max_age (nats-server 2.11+). */
    static final String NEVER = "never";
    private static final System.Logger LOG = System.getLogger(NatsLeaseStore.class.getName());

    private final JetStreamRequest requests;
    private final LeaseBucket bucket;
    private final Clock clock;
    private final StoreReplies replies = new StoreReplies();
    private final ForgottenExpiry forgotten;
    private final DeadAttachments dead;
    private volatile ReadyIdentity lastIdentity;
    /** The verdict under which an answer showed revisions handed out again; trusted no more until the next look. */
    private volatile BucketStatus.Ready repeating;

    /**
     * @param timeout how long one JetStream request may take before the call is {@code unavailable}
     * @param clock   what the bucket's grace period (no free key granted) is measured on
     */
    public NatsLeaseStore(Connection connection, LeaseBucket bucket, Duration timeout, Clock clock) {
        this(connection, bucket, timeout, clock, new DeadAttachments());
    }

    /** @param dead told of each attached key a read judged free, for its {@code freed} event (ADR-043) */
    public NatsLeaseStore(Connection connection, LeaseBucket bucket, Duration timeout, Clock clock,
            DeadAttachments dead) {
        this.dead = Objects.requireNonNull(dead, "dead");
        this.requests = new JetStreamRequest(connection, timeout);
        this.bucket = Objects.requireNonNull(bucket, "bucket");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.forgotten = new ForgottenExpiry(requests, replies.json());
    }

    @Override
    public CompletionStage<KeyState> read(LeaseKey key) {
        BucketSession session;
        try {
            session = BucketSession.open(bucket);
        } catch (LeaseFailure notServing) {
            return CompletableFuture.failedFuture(notServing);
        }
        return read(session, key, true, true);
    }

    /**
     * @param judge whether a key attached to a member lease is judged by its member's read (ADR-043); a
     *              member's own read is not: an attached record keeps nothing alive, so it answers the
     *              member free, and no chain of attachments is ever followed
     */
    private CompletionStage<KeyState> read(BucketSession session, LeaseKey key, boolean mayRemove, boolean judge) {
        byte[] body = ("{\"last_by_subj\":\"" + Subjects.keySubject(key) + "\"}").getBytes(StandardCharsets.US_ASCII);
        return request(Subjects.MESSAGE_GET, null, body, "read " + key).thenCompose(reply -> {
            StoreReplies.Read read = replies.toRead(session, key, reply);
            if (read.attached().isPresent() && judge) {
                // ADR-043: owned exactly while its member tenure is live, as the member's leader read shows now.
                AttachedRecord attached = read.attached().get();
                return read(session, attached.attachment().member(), true, false)
                        .thenApply(member -> {
                            KeyState judged = AttachedLiveness.judge(attached, member);
                            if (judged instanceof KeyState.Free) {
                                dead.found(attached, !(member instanceof KeyState.Held held)
                                        || attached.attachment().memberTenure().isBelow(held.lease().tenure()));
                            }
                            return judged;
                        });
            }
            if (read.forgottenFor().isEmpty()) {
                return CompletableFuture.completedFuture(read.state());
            }
            // Past its expiry on the last reading of the server's clock: confirm on a reading taken
            // after this read, then never answer it as held.
            return forgotten.confirm(read).thenCompose(late -> {
                if (late.isEmpty()) {
                    return CompletableFuture.completedFuture(read.state());
                }
                if (!mayRemove) {
                    throw new LeaseFailure(ErrorKind.UNAVAILABLE, "lease " + key
                            + " is one the store forgot to expire, and its removal lost a race: retry");
                }
                return forgotten.remove(session, read.forgotten(), late.get(),
                        (again, sameKey) -> read(again, sameKey, false, judge));
            });
        });
    }

    @Override
    public CompletionStage<WriteOutcome> write(LeaseWrite write) {
        BucketSession session;
        try {
            session = BucketSession.open(bucket);
        } catch (LeaseFailure notServing) {
            return CompletableFuture.failedFuture(notServing);
        }
        // No put (acquire or renew) while a bucket this one replaced may still have owners acting,
        // nor while this instance cannot look at the bucket (it would not learn of a grace end).
        Optional<String> withheld = session.writeWithheld(write, clock.instant());
        if (withheld.isPresent()) {
            return CompletableFuture.completedFuture(new WriteOutcome.Withheld(withheld.get()));
        }
        Headers headers = new Headers();
        headers.put(Subjects.HEADER_EXPECTED_LAST_SUBJECT_SEQUENCE, Long.toString(write.expectedSequence()));
        headers.put(Subjects.HEADER_EVENT, write.event().wireName());
        headers.put(Subjects.HEADER_HOLDER, write.holder().value());
        write.incarnation().ifPresent(incarnation -> headers.put(Subjects.HEADER_INCARNATION, incarnation.value()));
        byte[] body;
        if (write instanceof LeaseWrite.Put put) {
            if (put.attachment().isPresent()) {
                // ADR-043: no TTL of its own, it lives by its member lease; and "never", not no header: a
                // bucket's max_age (0, or 600 s and more, is accepted) would otherwise remove the record
                // under a live member, and the key would read free while its holder owns it.
                headers.put(Subjects.HEADER_TTL, NEVER);
                headers.put(LeaseHeaders.MEMBER, put.attachment().get().member().value());
            } else {
                headers.put(Subjects.HEADER_TTL, put.ttl().seconds() + "s");
            }
            put.from().ifPresent(from -> headers.put(LeaseHeaders.FROM, from.value()));
            put.check().ifPresent(check -> headers.put(LeaseHeaders.CHECK, check.value()));
            body = LeaseRecord.encode(put);
        } else {
            // A release or revoke is a KV delete that expires by itself, so freed keys leave nothing behind.
            LeaseWrite.Tombstone tombstone = (LeaseWrite.Tombstone) write;
            headers.put(Subjects.HEADER_KV_OPERATION, "DEL");
            headers.put(Subjects.HEADER_TTL, bucket.settings().markerTtl().toSeconds() + "s");
            headers.put(Subjects.HEADER_FENCE, LeaseHeaders.formatFence(tombstone.endedFence()));
            tombstone.revokeReason().ifPresent(reason -> headers.put(Subjects.HEADER_REASON, reason.value()));
            tombstone.revokedBy().ifPresent(by -> headers.put(Subjects.HEADER_REVOKED_BY, by.value()));
            tombstone.endedMember().ifPresent(member -> headers.put(LeaseHeaders.MEMBER, member.value()));
            body = NO_BODY;
        }
        // The stream had this sequence before the write was sent: its ack must be higher.
        long confirmedAtSend = session.confirmedAtSend();
        return request(Subjects.keySubject(write.key()), headers, body, "write " + write.key())
                .thenApply(reply -> replies.toWriteOutcome(session, write, reply, confirmedAtSend));
    }

    @Override
    public Identity identity() {
        if (!(bucket.status() instanceof BucketStatus.Ready ready)) {
            return Identity.NONE;
        }
        // Asked on every call: built once per verdict, not per request.
        ReadyIdentity cached = lastIdentity;
        if (cached == null || cached.ready() != ready) {
            cached = new ReadyIdentity(ready, ready.identity().forStore());
            lastIdentity = cached;
        }
        // Every look makes a new verdict: the next one judges the bucket afresh (a copy is refused then).
        return ready == repeating ? new Identity(cached.identity().name(), false) : cached.identity();
    }

    @Override
    public CompletionStage<Optional<String>> report(Evidence evidence) {
        if (evidence instanceof Evidence.Contradicted contradicted) {
            if (bucket.status() instanceof BucketStatus.Ready ready) {
                bucket.served().lost(ready, contradicted.evidence());
            }
        } else if (evidence instanceof Evidence.RevisionsRepeat repeat) {
            revisionsRepeat(repeat.evidence());
        } else if (evidence instanceof Evidence.PresentedAbove presented) {
            return wentBackBelow(presented.key(), presented.presented(), presented.ttl());
        }
        return CompletableFuture.completedFuture(Optional.empty());
    }

    private void revisionsRepeat(String evidence) {
        if (bucket.status() instanceof BucketStatus.Ready ready && repeating != ready) {
            repeating = ready;
            LOG.log(System.Logger.Level.WARNING, "dagnats: the leases bucket hands out revisions again (" + evidence
                    + "): it is not the bucket last judged, perhaps one recreated from a copy of its configuration;"
                    + " the memory of known leases is off and every call reads the leader until the next look");
        }
    }

    private record ReadyIdentity(BucketStatus.Ready ready, Identity identity) {
    }

    private CompletionStage<Optional<String>> wentBackBelow(LeaseKey key, Fence presented, Optional<LeaseTtl> ttl) {
        if (!(bucket.status() instanceof BucketStatus.Ready ready)) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        // Asked after the key's read; until the skip's look the memory proposes nothing (ADR-037).
        return RollbackProof.check(request(Subjects.STREAM_INFO, null, NO_BODY, "read the stream's last sequence"),
                ready, key, presented.revision(), ttl).thenApply(proof -> proof.map(found -> {
                    repeating = ready;
                    return bucket.wentBack(found);
                }));
    }

    private CompletableFuture<Message> request(String subject, Headers headers, byte[] body, String what) {
        return requests.send(subject, headers, body, what);
    }
}
