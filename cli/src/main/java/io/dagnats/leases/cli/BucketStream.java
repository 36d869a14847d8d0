package io.dagnats.leases.cli;

import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseStorage;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamSubscription;
import io.nats.client.Message;
import io.nats.client.PushSubscribeOptions;
import io.nats.client.api.ConsumerConfiguration;
import io.nats.client.api.DeliverPolicy;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsJetStreamMetaData;
import io.nats.client.support.NatsKeyValueUtil;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * The leases bucket's stream read from a revision on, for a watch that resumes: an ordered
 * consumer (jnats' own, as its KV watch uses), which jnats recreates from the last message it
 * handed over + 1 whenever a heartbeat is missed or a message comes out of order. After a
 * reconnect the watch does not wait for that: it opens a new one from the revision it prints
 * next. Every key of the bucket is read (a watch of one key or a
 * prefix filters here), so a jump in the revisions always means the bucket no longer holds
 * the ones between ({@link WatchRules}).
 */
final class BucketStream implements AutoCloseable {

    /** A lost server is noticed after three missed heartbeats, and the consumer made again. */
    private static final Duration HEARTBEAT = Duration.ofSeconds(1);
    private static final String KEY_PREFIX = NatsKeyValueUtil.toKeyPrefix(LeaseStorage.BUCKET);

    /** One message of the stream: its revision, how many are still pending after it, and the change it is. */
    record Stored(long revision, long pending, Optional<LeaseChange> change) {
    }

    /** What opening gave: the stream, or why this user cannot read it (one sentence). */
    sealed interface Opening {
        record Reading(BucketStream stream, long start) implements Opening {
        }

        record Unreadable(String why) implements Opening {
        }
    }

    private final JetStreamSubscription subscription;

    private BucketStream(JetStreamSubscription subscription) {
        this.subscription = subscription;
    }

    /**
     * @param since the first revision to deliver; empty for the next one written
     * @throws CliFailure when NATS does not answer at all
     */
    static Opening open(NatsSession session, OptionalLong since) {
        try {
            long start = since.isPresent() ? since.getAsLong()
                    : session.connection().jetStreamManagement().getStreamInfo(BucketReport.STREAM)
                            .getStreamState().getLastSequence() + 1;
            ConsumerConfiguration from = ConsumerConfiguration.builder()
                    .deliverPolicy(DeliverPolicy.ByStartSequence)
                    .startSequence(start)
                    .idleHeartbeat(HEARTBEAT)
                    .build();
            JetStreamSubscription subscription = session.connection().jetStream().subscribe(
                    NatsKeyValueUtil.toStreamSubject(LeaseStorage.BUCKET),
                    PushSubscribeOptions.builder().stream(BucketReport.STREAM).ordered(true).configuration(from).build());
            return new Opening.Reading(new BucketStream(subscription), start);
        } catch (JetStreamApiException refused) {
            return new Opening.Unreadable("JetStream answered " + refused.getErrorDescription());
        } catch (IOException noAnswer) {
            try {
                session.confirmPermitted();
            } catch (CliFailure denied) {
                return new Opening.Unreadable(denied.getMessage());
            }
            return new Opening.Unreadable("JetStream did not answer: " + noAnswer.getMessage());
        }
    }

    /**
     * The next message, or empty when none arrived within {@code wait}.
     *
     * @throws IllegalStateException when the connection was closed
     */
    Optional<Stored> next(Duration wait) throws InterruptedException {
        Message message = subscription.nextMessage(wait);
        if (message == null) {
            return Optional.empty();
        }
        NatsJetStreamMetaData stored = message.metaData();
        String subject = message.getSubject();
        Optional<LeaseChange> change = subject.startsWith(KEY_PREFIX)
                ? LeaseChange.readStored(subject.substring(KEY_PREFIX.length()), headerOf(message),
                        stored.streamSequence(), stored.timestamp().toInstant())
                : Optional.empty();
        return Optional.of(new Stored(stored.streamSequence(), stored.pendingCount(), change));
    }

    private static Function<String, String> headerOf(Message message) {
        Headers headers = message.getHeaders();
        return headers == null ? name -> null : headers::getFirst;
    }

    @Override
    public void close() {
        try {
            subscription.unsubscribe();
        } catch (IllegalStateException alreadyClosed) {
            // the connection closed first: nothing to unsubscribe
        }
    }
}
