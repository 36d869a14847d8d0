package io.dagnats.leases.adapters.nats;

import com.fasterxml.jackson.core.JsonFactory;
import io.dagnats.leases.application.LeaseFailure;
import io.dagnats.leases.application.LeaseListing;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Subscription;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The held leases, read along the bucket's stream in sequence order. With
 * history 1 each key has one stored message, so a walk by sequence passes every
 * lease held for the whole walk exactly once; a position is the next sequence
 * to read.
 *
 * <p>A page is one batched direct get of {@code limit} messages when the stream
 * allows direct gets (every bucket dagnats creates does): one round trip, which
 * the leader or, in a cluster, a replica that may lag answers. Two things keep
 * such an answer honest:
 * <ul>
 *   <li>Only the bucket's own stream may answer: a mirror of it (an admin's backup
 *       or audit copy) joins the direct-get group too, with its own history and
 *       limits. A batch whose messages do not carry {@code Nats-Stream: KV_leases}
 *       is asked once more, then read through the leader.</li>
 *   <li>Only the leader ends a walk: a batch that says nothing follows (a lagging
 *       replica, or an empty answer that names no stream) is checked by one leader
 *       read after its last message; what the leader has there joins the page, and
 *       the walk goes on.</li>
 * </ul>
 * A lagging replica may still show an older revision of a lease; it cannot hide a
 * lease the walk has not passed, as every message it lacks lies after the ones it
 * has. On a stream without {@code allow_direct} a page is up to {@code limit}
 * leader reads, one message each. Either way a page costs at most three round
 * trips or {@code limit} leader reads, and looks at no more than {@code limit}
 * messages (one more when the leader's check finds it); tombstones, expiry markers,
 * keys outside the prefix and records this service cannot read take their place in
 * it without being listed (an unreadable one is logged once). Listing never feeds
 * the lease calls' own checks of the bucket (its sequences, the memory of known
 * leases): it only reads.
 */
public final class NatsLeaseListing implements LeaseListing {

    /** Batched direct gets a page asks before it reads through the leader: a mirror may answer each. */
    private static final int DIRECT_TRIES = 2;

    private final Connection connection;
    private final LeaseBucket bucket;
    private final Duration timeout;
    private final JetStreamRequest requests;
    private final JsonFactory json = new JsonFactory();
    private final UnreadableRecords unreadable = new UnreadableRecords();
    private Dispatcher batches;
    private final Function<LeaseKey, CompletionStage<KeyState>> memberReads;

    /**
     * @param timeout     how long one page's JetStream requests may take before it is {@code unavailable}
     * @param memberReads a leader read of a member lease, which judges the keys attached to it (ADR-043)
     */
    public NatsLeaseListing(Connection connection, LeaseBucket bucket, Duration timeout,
            Function<LeaseKey, CompletionStage<KeyState>> memberReads) {
        this.memberReads = Objects.requireNonNull(memberReads, "memberReads");
        this.connection = Objects.requireNonNull(connection, "connection");
        this.bucket = Objects.requireNonNull(bucket, "bucket");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.requests = new JetStreamRequest(connection, timeout);
    }

    @Override
    public CompletionStage<Page> page(KeyPrefix prefix, long from, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("a page looks at 1 message or more, not " + limit);
        }
        BucketStatus.Ready ready;
        try {
            ready = bucket.status().orFail();
        } catch (LeaseFailure notServing) {
            return CompletableFuture.failedFuture(notServing);
        }
        long start = Math.max(1, from);
        CompletableFuture<StreamScan> scan = ready.directGets()
                ? fromTheBucket(start, limit, DIRECT_TRIES)
                : throughLeader(start, limit, new ArrayList<>());
        return scan.thenCompose(found -> leases(prefix, found.messages()).held(memberReads)
                .thenApply(leases -> new Page(leases, found.next())));
    }

    /** A batch answered by the bucket's own stream, not a mirror; {@code tries} batches, then the leader. */
    private CompletableFuture<StreamScan> fromTheBucket(long start, int limit, int tries) {
        return directBatch(start, limit).thenCompose(found -> {
            if (!found.messages().stream().allMatch(NatsLeaseListing::fromTheBucket)) {
                return tries > 1 ? fromTheBucket(start, limit, tries - 1) : throughLeader(start, limit, new ArrayList<>());
            }
            return found.next().isPresent() ? CompletableFuture.completedFuture(found) : endConfirmed(start, limit, found);
        });
    }

    private static boolean fromTheBucket(StoredMessage message) {
        return Subjects.STREAM.equals(message.header(Subjects.HEADER_STREAM));
    }

    /**
     * The batch says nothing follows it; the leader, asked for the one message after it, has
     * the last word. What it has there joins the page (or, on a full page, is where the walk
     * goes on), so a walk never ends on a replica's or mirror's word.
     */
    private CompletableFuture<StreamScan> endConfirmed(long start, int limit, StreamScan found) {
        List<StoredMessage> page = new ArrayList<>(found.messages());
        long after = page.isEmpty() ? start : page.get(page.size() - 1).sequence() + 1;
        return throughLeader(after, 1, new ArrayList<>()).thenApply(leader -> {
            if (leader.messages().isEmpty()) {
                return found;
            }
            if (page.size() >= limit) {
                return new StreamScan(page, OptionalLong.of(after));
            }
            page.add(leader.messages().get(0));
            return new StreamScan(page, leader.next());
        });
    }

    private CompletableFuture<StreamScan> directBatch(long start, int limit) {
        DirectBatch batch = new DirectBatch();
        Dispatcher dispatcher;
        Subscription subscription;
        String inbox = connection.createInbox();
        try {
            dispatcher = dispatcher();
            subscription = dispatcher.subscribe(inbox, batch::onMessage);
        } catch (RuntimeException closed) {
            return notSent(closed);
        }
        try {
            connection.publish(Subjects.DIRECT_GET, inbox, request(start, Optional.of(limit)));
        } catch (RuntimeException closed) {
            unsubscribe(dispatcher, subscription);
            return notSent(closed);
        }
        return batch.done()
                .orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS)
                .whenComplete((found, failure) -> unsubscribe(dispatcher, subscription))
                .exceptionallyCompose(failure -> CompletableFuture.failedFuture(
                        Stages.cause(failure) instanceof LeaseFailure known ? known
                                : new LeaseFailure(ErrorKind.UNAVAILABLE, "JetStream did not answer the listing in time",
                                        Stages.cause(failure))));
    }

    private static CompletableFuture<StreamScan> notSent(RuntimeException closed) {
        return CompletableFuture.failedFuture(new LeaseFailure(ErrorKind.UNAVAILABLE,
                "could not list the leases: " + closed.getMessage(), closed));
    }

    /** One leader read at a time, each the next message on a key subject, until {@code limit} or the end. */
    private CompletableFuture<StreamScan> throughLeader(long start, int limit, List<StoredMessage> found) {
        return requests.send(Subjects.MESSAGE_GET, null,
                        request(start, Optional.empty()), "list the leases")
                .thenCompose(reply -> {
                    MessageGetReply get;
                    try {
                        get = JetStreamReplies.parseGetReply(json, reply.getData());
                    } catch (IOException | RuntimeException garbled) {
                        throw new LeaseFailure(ErrorKind.INTERNAL, "JetStream's answer to a listing was unreadable",
                                garbled);
                    }
                    if (get.error() != null) {
                        if (get.error().errorCode() == JetStreamApiError.NO_MESSAGE_FOUND) {
                            return CompletableFuture.completedFuture(new StreamScan(found, OptionalLong.empty()));
                        }
                        throw new LeaseFailure(get.error().code() == 503 ? ErrorKind.UNAVAILABLE : ErrorKind.INTERNAL,
                                "JetStream refused to list the leases: " + get.error().description()
                                        + " (" + get.error().errorCode() + ")");
                    }
                    found.add(get.message());
                    long next = get.message().sequence() + 1;
                    return found.size() >= limit
                            ? CompletableFuture.completedFuture(new StreamScan(found, OptionalLong.of(next)))
                            : throughLeader(next, limit, found);
                });
    }

    private static byte[] request(long start, Optional<Integer> batch) {
        String body = "{\"seq\":" + start + ",\"next_by_subj\":\"" + Subjects.KEY_WILDCARD + "\""
                + batch.map(size -> ",\"batch\":" + size).orElse("") + "}";
        return body.getBytes(StandardCharsets.US_ASCII);
    }

    /** The held leases among {@code messages} whose keys start with {@code prefix}. */
    private ListedRecords leases(KeyPrefix prefix, List<StoredMessage> messages) {
        ListedRecords leases = new ListedRecords();
        Optional<Instant> serverTime = bucket.serverTimeAtLeast();
        for (StoredMessage message : messages) {
            Optional<LeaseKey> key = Subjects.keyOf(message.subject());
            // A subject that is no lease key was written by something else: not a lease. A lease the
            // store forgot to expire (ADR-035) is free; the next read of its key removes it.
            if (key.isEmpty() || !prefix.matches(key.get()) || message.freesKey()
                    || message.forgottenFor(serverTime).isPresent()) {
                continue;
            }
            try {
                LeaseRecord.Decoded decoded = LeaseRecord.decodeAny(json, key.get(), message);
                if (decoded instanceof LeaseRecord.Decoded.Attached attached) {
                    leases.attached(attached.record());
                } else {
                    leases.plain(((LeaseRecord.Decoded.Plain) decoded).lease());
                }
            } catch (LeaseRecord.UnreadableRecord notALease) {
                // Written by something else with write rights on the bucket: not a lease, and no
                // reason to stop the walk at it.
                unreadable.passedOver(message.sequence(), notALease);
            }
        }
        return leases;
    }

    private synchronized Dispatcher dispatcher() {
        if (batches == null) {
            batches = connection.createDispatcher();
        }
        return batches;
    }

    private static void unsubscribe(Dispatcher dispatcher, Subscription subscription) {
        try {
            dispatcher.unsubscribe(subscription);
        } catch (RuntimeException closed) {
            // The connection is closing: the subscription goes with it.
        }
    }
}
