package io.dagnats.leases.adapters.nats;

import com.fasterxml.jackson.core.JsonFactory;
import io.dagnats.leases.application.LeaseFailure;
import io.dagnats.leases.application.LeaseStore;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseEvent;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.LeaseWrite;
import io.dagnats.leases.domain.StoreExpiry;
import io.dagnats.leases.protocol.LeaseHeaders;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.impl.Headers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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
 * <p>Over 300 lines on purpose: each outcome depends on the bucket verdict the
 * request was sent under; split apart, every piece would take both as arguments.
 */
public final class NatsLeaseStore implements LeaseStore {

    private static final byte[] NO_BODY = new byte[0];
    private static final System.Logger LOG = System.getLogger(NatsLeaseStore.class.getName());

    private final JetStreamRequest requests;
    private final LeaseBucket bucket;
    private final Clock clock;
    private final JsonFactory json = new JsonFactory();
    private volatile ReadyIdentity lastIdentity;
    /** The verdict under which an answer showed revisions handed out again; trusted no more until the next look. */
    private volatile BucketStatus.Ready repeating;

    /**
     * @param timeout how long one JetStream request may take before the call is {@code unavailable}
     * @param clock   what the bucket's grace period (no free key granted) is measured on
     */
    public NatsLeaseStore(Connection connection, LeaseBucket bucket, Duration timeout, Clock clock) {
        this.requests = new JetStreamRequest(connection, timeout);
        this.bucket = Objects.requireNonNull(bucket, "bucket");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public CompletionStage<KeyState> read(LeaseKey key) {
        BucketStatus.Ready ready;
        try {
            ready = ready();
        } catch (LeaseFailure notServing) {
            return CompletableFuture.failedFuture(notServing);
        }
        return read(ready, key, true);
    }

    private CompletionStage<KeyState> read(BucketStatus.Ready ready, LeaseKey key, boolean mayRemove) {
        byte[] body = ("{\"last_by_subj\":\"" + Subjects.keySubject(key) + "\"}").getBytes(StandardCharsets.US_ASCII);
        return request(Subjects.MESSAGE_GET, null, body, "read " + key).thenCompose(reply -> {
            Read read = toRead(ready, key, reply);
            if (read.forgottenFor().isEmpty()) {
                return CompletableFuture.completedFuture(read.state());
            }
            // Past its expiry on the last reading of the server's clock: confirm on a reading taken
            // after this read, then never answer it as held.
            return confirmForgotten(read).thenCompose(late -> {
                if (late.isEmpty()) {
                    return CompletableFuture.completedFuture(read.state());
                }
                if (!mayRemove) {
                    throw new LeaseFailure(ErrorKind.UNAVAILABLE, "lease " + key
                            + " is one the store forgot to expire, and its removal lost a race: retry");
                }
                return removeForgotten(ready, read.forgotten(), late.get());
            });
        });
    }

    /**
     * How long ago the store should have freed the lease {@code read} shows, judged on a reading of
     * the stream leader's clock requested after that read's answer arrived (ADR-035): the same clock
     * as the server's own expiry of it, so a step back of that clock, or another server's clock,
     * can never make dagnats free a lease before the server itself would. Empty when the lease is
     * live on that reading, or no reading comes.
     */
    private CompletionStage<Optional<Duration>> confirmForgotten(Read read) {
        return request(Subjects.STREAM_INFO, null, NO_BODY, "read the server's clock")
                .thenApply(reply -> {
                    try {
                        return JetStreamReplies.parseServerTime(json, reply.getData());
                    } catch (IOException | RuntimeException garbled) {
                        return Optional.<Instant>empty();
                    }
                })
                .exceptionally(noAnswer -> Optional.empty())
                .thenApply(serverTime -> read.expiry().flatMap(expiry -> expiry.forgottenFor(serverTime)));
    }

    /** What a leader read showed, and, for a lease the store forgot to expire, how long ago it should have. */
    private record Read(KeyState state, Lease forgotten, Optional<Duration> forgottenFor, Optional<StoreExpiry> expiry) {
    }

    /**
     * Removes a lease the store still shows long after its own expiry (ADR-035) with a fenced delete
     * (expected last subject sequence = its revision), so the change event a waiter expects is
     * published ({@link LeaseHeaders#EVENT} {@code expired}), and logs it once, as one line: only the
     * delete that applied logs. A delete that lost a race reads the key again; one JetStream did not
     * take answers {@code unavailable}, and the caller asks again.
     */
    private CompletionStage<KeyState> removeForgotten(BucketStatus.Ready ready, Lease expired, Duration late) {
        LeaseKey key = expired.key();
        Headers headers = new Headers();
        headers.put(Subjects.HEADER_EXPECTED_LAST_SUBJECT_SEQUENCE, Long.toString(expired.revision().revision()));
        headers.put(Subjects.HEADER_EVENT, LeaseEvent.EXPIRED.wireName());
        headers.put(Subjects.HEADER_HOLDER, expired.holder().value());
        expired.incarnation().ifPresent(incarnation -> headers.put(Subjects.HEADER_INCARNATION, incarnation.value()));
        headers.put(Subjects.HEADER_KV_OPERATION, "DEL");
        headers.put(Subjects.HEADER_TTL, bucket.settings().markerTtl().toSeconds() + "s");
        headers.put(Subjects.HEADER_FENCE, LeaseHeaders.formatFence(expired.revision()));
        // A removal JetStream did not take answers unavailable: a made-up "free" would be remembered
        // as a read, and the next real read of the same write would look like a reused revision.
        LeaseFailure notTaken = new LeaseFailure(ErrorKind.UNAVAILABLE,
                "lease " + key + " is one the store forgot to expire, and its removal was not confirmed: retry");
        return request(Subjects.keySubject(key), headers, NO_BODY, "remove expired " + key)
                .exceptionally(noAnswer -> null)
                .thenCompose(reply -> {
                    if (reply == null) {
                        return CompletableFuture.failedFuture(notTaken);
                    }
                    PublishAck ack;
                    try {
                        ack = JetStreamReplies.parsePublishAck(json, reply.getData());
                    } catch (IOException | RuntimeException garbled) {
                        return CompletableFuture.failedFuture(notTaken);
                    }
                    if (ack.error() != null) {
                        return ack.error().wrongLastSequence() ? read(ready, key, false)
                                : CompletableFuture.failedFuture(notTaken);
                    }
                    checkSequence(ready, ack.sequence(), "the removal of expired " + key);
                    LOG.log(System.Logger.Level.WARNING, "dagnats: lease " + key + " of " + expired.claimant()
                            + " at revision " + expired.revision() + " expired " + late.toMillis()
                            + " ms ago on the server's clock but the store still showed it (a store recovered"
                            + " after a crash forgets TTL expiries, nats-server#6781); removed it at revision "
                            + ack.sequence());
                    return CompletableFuture.<KeyState>completedFuture(new KeyState.Free(key, ack.sequence()));
                });
    }

    @Override
    public CompletionStage<WriteOutcome> write(LeaseWrite write) {
        BucketStatus.Ready ready;
        try {
            ready = ready();
        } catch (LeaseFailure notServing) {
            return CompletableFuture.failedFuture(notServing);
        }
        // No put (acquire or renew) while a bucket this one replaced may still have owners acting.
        Optional<String> withheld = ready.writeWithheld(write, clock.instant());
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
            headers.put(Subjects.HEADER_TTL, put.ttl().seconds() + "s");
            body = LeaseRecord.encode(put);
        } else {
            // A release or revoke is a KV delete that expires by itself, so freed keys leave nothing behind.
            LeaseWrite.Tombstone tombstone = (LeaseWrite.Tombstone) write;
            headers.put(Subjects.HEADER_KV_OPERATION, "DEL");
            headers.put(Subjects.HEADER_TTL, bucket.settings().markerTtl().toSeconds() + "s");
            headers.put(Subjects.HEADER_FENCE, LeaseHeaders.formatFence(tombstone.endedFence()));
            tombstone.revokeReason().ifPresent(reason -> headers.put(Subjects.HEADER_REASON, reason.value()));
            body = NO_BODY;
        }
        // The stream had this sequence before the write was sent: its ack must be higher.
        long confirmedAtSend = bucket.sequences(ready.identity()).map(SequenceCheck::highest).orElse(Long.MIN_VALUE);
        return request(Subjects.keySubject(write.key()), headers, body, "write " + write.key())
                .thenApply(reply -> toWriteOutcome(ready, write, reply, confirmedAtSend));
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
                bucket.lost(ready, contradicted.evidence());
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

    /** The bucket as judged ready; otherwise a failure saying why calls are not served. */
    private BucketStatus.Ready ready() {
        return bucket.status().orFail();
    }

    private CompletableFuture<Message> request(String subject, Headers headers, byte[] body, String what) {
        return requests.send(subject, headers, body, what);
    }

    /**
     * A sequence below the bucket's first, or far above the highest confirmed in it (a replacement
     * another instance made since this one looked), came from another bucket ({@link SequenceCheck}).
     */
    private void checkSequence(BucketStatus.Ready ready, long sequence, String what) {
        Optional<String> problem = bucket.sequences(ready.identity())
                .map(sequences -> sequences.problem(sequence))
                .orElse(Optional.of("sequence " + sequence + ", while the bucket was being judged again"));
        if (problem.isPresent()) {
            String reason = what + " answered " + problem.get();
            bucket.lost(ready, reason);
            throw new LeaseFailure(ErrorKind.UNAVAILABLE, "the leases bucket changed: " + reason);
        }
        bucket.saw(sequence);
    }

    private Read toRead(BucketStatus.Ready ready, LeaseKey key, Message reply) {
        MessageGetReply get;
        try {
            get = JetStreamReplies.parseGetReply(json, reply.getData());
        } catch (IOException | RuntimeException garbled) {
            throw new LeaseFailure(ErrorKind.INTERNAL, "JetStream's answer to a read of " + key + " was unreadable", garbled);
        }
        if (get.error() != null) {
            if (get.error().errorCode() == JetStreamApiError.NO_MESSAGE_FOUND) {
                return new Read(new KeyState.Free(key, 0), null, Optional.empty(), Optional.empty());
            }
            if (get.error().errorCode() == JetStreamApiError.STREAM_NOT_FOUND) {
                bucket.lost(ready, "the stream " + Subjects.STREAM + " was not found on a read of " + key);
                throw new LeaseFailure(ErrorKind.UNAVAILABLE, "the leases bucket is gone; checking it again");
            }
            throw get.error().failure("read " + key);
        }
        StoredMessage message = get.message();
        checkSequence(ready, message.sequence(), "a read of " + key);
        if (message.freesKey()) {
            return new Read(new KeyState.Free(key, message.sequence()), null, Optional.empty(), Optional.empty());
        }
        Lease lease;
        try {
            lease = LeaseRecord.decode(json, key, message);
        } catch (IOException corrupt) {
            throw new LeaseFailure(ErrorKind.INTERNAL, corrupt.getMessage(), corrupt);
        }
        // Judged on the server's clock only: its stamp and TTL against its own time, never this host's.
        Optional<Duration> forgotten = message.forgottenFor(bucket.serverTimeAtLeast());
        return new Read(new KeyState.Held(lease), lease, forgotten, message.expiry());
    }

    private WriteOutcome toWriteOutcome(BucketStatus.Ready ready, LeaseWrite write, Message reply, long confirmedAtSend) {
        PublishAck ack;
        try {
            ack = JetStreamReplies.parsePublishAck(json, reply.getData());
        } catch (IOException | RuntimeException garbled) {
            throw new LeaseFailure(ErrorKind.INTERNAL,
                    "JetStream's answer to a write of " + write.key() + " was unreadable", garbled);
        }
        if (ack.error() != null) {
            if (ack.error().wrongLastSequence()) {
                return new WriteOutcome.Conflict();
            }
            throw ack.error().failure("write " + write.key());
        }
        checkSequence(ready, ack.sequence(), "a write of " + write.key());
        Optional<String> rollback = bucket.sequences(ready.identity())
                .flatMap(sequences -> sequences.rollback(ack.sequence(), confirmedAtSend));
        if (rollback.isPresent()) {
            bucket.rolledBack(ready, "a write of " + write.key() + ": " + rollback.get());
            throw new LeaseFailure(ErrorKind.UNSUPPORTED, "the leases bucket went back: " + rollback.get());
        }
        return new WriteOutcome.Written(new Fence(ack.sequence()));
    }

}
