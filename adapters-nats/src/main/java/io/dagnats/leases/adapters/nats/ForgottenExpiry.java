package io.dagnats.leases.adapters.nats;

import com.fasterxml.jackson.core.JsonFactory;
import io.dagnats.leases.application.LeaseFailure;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseEvent;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.LeaseHeaders;
import io.nats.client.impl.Headers;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;

/**
 * A lease the store still shows long after its own expiry (a store recovered after a crash forgets
 * TTL expiries, nats-server#6781; ADR-035): confirmed on a fresh reading of the server's clock, then
 * removed with a fenced delete that publishes the {@code expired} change event a waiter expects.
 */
final class ForgottenExpiry {

    private static final byte[] NO_BODY = new byte[0];
    private static final System.Logger LOG = System.getLogger(LogNames.STORE);

    private final JetStreamRequest requests;
    private final JsonFactory json;

    ForgottenExpiry(JetStreamRequest requests, JsonFactory json) {
        this.requests = requests;
        this.json = json;
    }

    /**
     * How long ago the store should have freed the lease {@code read} shows, judged on a reading of
     * the stream leader's clock requested after that read's answer arrived (ADR-035): the same clock
     * as the server's own expiry of it, so a step back of that clock, or another server's clock,
     * can never make dagnats free a lease before the server itself would. Empty when the lease is
     * live on that reading, or no reading comes.
     */
    CompletionStage<Optional<Duration>> confirm(StoreReplies.Read read) {
        return requests.send(Subjects.STREAM_INFO, null, NO_BODY, "read the server's clock")
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

    /**
     * Removes {@code expired} with a fenced delete (expected last subject sequence = its revision), so
     * the change event a waiter expects is published ({@link LeaseHeaders#EVENT} {@code expired}), and
     * logs it once, as one line: only the delete that applied logs. A delete that lost a race reads the
     * key again ({@code readAgain}); one JetStream did not take answers {@code unavailable}, and the
     * caller asks again.
     */
    CompletionStage<KeyState> remove(BucketSession session, Lease expired, Duration late,
            BiFunction<BucketSession, LeaseKey, CompletionStage<KeyState>> readAgain) {
        LeaseKey key = expired.key();
        Headers headers = new Headers();
        headers.put(Subjects.HEADER_EXPECTED_LAST_SUBJECT_SEQUENCE, Long.toString(expired.revision().revision()));
        headers.put(Subjects.HEADER_EVENT, LeaseEvent.EXPIRED.wireName());
        headers.put(Subjects.HEADER_HOLDER, expired.holder().value());
        expired.incarnation().ifPresent(incarnation -> headers.put(Subjects.HEADER_INCARNATION, incarnation.value()));
        headers.put(Subjects.HEADER_KV_OPERATION, "DEL");
        headers.put(Subjects.HEADER_TTL, session.settings().markerTtl().toSeconds() + "s");
        headers.put(Subjects.HEADER_FENCE, LeaseHeaders.formatFence(expired.revision()));
        // A removal JetStream did not take answers unavailable: a made-up "free" would be remembered
        // as a read, and the next real read of the same write would look like a reused revision.
        LeaseFailure notTaken = new LeaseFailure(ErrorKind.UNAVAILABLE,
                "lease " + key + " is one the store forgot to expire, and its removal was not confirmed: retry");
        return requests.send(Subjects.keySubject(key), headers, NO_BODY, "remove expired " + key)
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
                        return ack.error().wrongLastSequence() ? readAgain.apply(session, key)
                                : CompletableFuture.failedFuture(notTaken);
                    }
                    session.check(ack.sequence(), "the removal of expired " + key);
                    LOG.log(System.Logger.Level.WARNING, "dagnats: lease " + key + " of " + expired.claimant()
                            + " at revision " + expired.revision() + " expired " + late.toMillis()
                            + " ms ago on the server's clock but the store still showed it (a store recovered"
                            + " after a crash forgets TTL expiries, nats-server#6781); removed it at revision "
                            + ack.sequence());
                    return CompletableFuture.<KeyState>completedFuture(new KeyState.Free(key, ack.sequence()));
                });
    }
}
