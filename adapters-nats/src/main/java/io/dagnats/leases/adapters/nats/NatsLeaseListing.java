package io.dagnats.leases.adapters.nats;

import com.fasterxml.jackson.core.JsonFactory;
import io.dagnats.leases.application.LeaseFailure;
import io.dagnats.leases.application.LeaseListing;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Subscription;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * The held leases, read along the bucket's stream in sequence order. With
 * history 1 each key has one stored message, so a walk by sequence passes every
 * lease held for the whole walk exactly once; a position is the next sequence
 * to read.
 *
 * <p>A page is one batched direct get of {@code limit} messages when the stream
 * allows direct gets (every bucket dagnats creates does): one round trip, which
 * the leader or, in a cluster, a replica that may lag answers. On a stream
 * without {@code allow_direct} it is up to {@code limit} leader reads, one
 * message each. Either way a page looks at no more than {@code limit} messages;
 * tombstones, expiry markers and keys outside the prefix take their place in it
 * without being listed. Listing never feeds the lease calls' own checks of the
 * bucket (its sequences, the memory of known leases): it only reads.
 */
public final class NatsLeaseListing implements LeaseListing {

    private final Connection connection;
    private final LeaseBucket bucket;
    private final Duration timeout;
    private final JsonFactory json = new JsonFactory();
    private Dispatcher batches;

    /** @param timeout how long one page's JetStream requests may take before it is {@code unavailable} */
    public NatsLeaseListing(Connection connection, LeaseBucket bucket, Duration timeout) {
        this.connection = Objects.requireNonNull(connection, "connection");
        this.bucket = Objects.requireNonNull(bucket, "bucket");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
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
                ? directBatch(start, limit)
                : throughLeader(start, limit, new ArrayList<>());
        return scan.thenApply(found -> new Page(leases(prefix, found.messages()), found.next()));
    }

    private CompletableFuture<StreamScan> directBatch(long start, int limit) {
        DirectBatch batch = new DirectBatch();
        Dispatcher dispatcher;
        Subscription subscription;
        String inbox = connection.createInbox();
        try {
            dispatcher = dispatcher();
            subscription = dispatcher.subscribe(inbox, batch::onMessage);
            connection.publish(Subjects.DIRECT_GET, inbox, request(start, Optional.of(limit)));
        } catch (RuntimeException closed) {
            return CompletableFuture.failedFuture(new LeaseFailure(ErrorKind.UNAVAILABLE,
                    "could not list the leases: " + closed.getMessage(), closed));
        }
        return batch.done()
                .orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS)
                .whenComplete((found, failure) -> unsubscribe(dispatcher, subscription))
                .exceptionallyCompose(failure -> CompletableFuture.failedFuture(
                        Stages.cause(failure) instanceof LeaseFailure known ? known
                                : new LeaseFailure(ErrorKind.UNAVAILABLE, "JetStream did not answer the listing in time",
                                        Stages.cause(failure))));
    }

    /** One leader read at a time, each the next message on a key subject, until {@code limit} or the end. */
    private CompletableFuture<StreamScan> throughLeader(long start, int limit, List<StoredMessage> found) {
        return JetStreamRequest.send(connection, timeout, Subjects.MESSAGE_GET, null,
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
    private List<Lease> leases(KeyPrefix prefix, List<StoredMessage> messages) {
        List<Lease> leases = new ArrayList<>(messages.size());
        for (StoredMessage message : messages) {
            Optional<LeaseKey> key = Subjects.keyOf(message.subject());
            // A subject that is no lease key was written by something else: not a lease.
            if (key.isEmpty() || !prefix.matches(key.get()) || message.freesKey()) {
                continue;
            }
            try {
                leases.add(LeaseRecord.decode(json, key.get(), message));
            } catch (IOException corrupt) {
                throw new LeaseFailure(ErrorKind.INTERNAL, corrupt.getMessage(), corrupt);
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
