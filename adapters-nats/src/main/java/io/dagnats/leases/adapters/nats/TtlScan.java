package io.dagnats.leases.adapters.nats;

import com.fasterxml.jackson.core.JsonFactory;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.Message;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/** The longest TTL among a bucket's leases, for the grace of a {@link FenceSkip}. */
final class TtlScan {

    private static final JsonFactory JSON = new JsonFactory();

    private TtlScan() {
    }

    /**
     * The longest TTL among the leases in the stream up to {@code last}, read message by message from
     * the stream leader ({@code STREAM.MSG.GET}, never a direct get a lagging replica could answer).
     */
    static Optional<Duration> longest(Connection connection, long last, GraceHold hold)
            throws IOException, JetStreamApiException {
        Optional<Duration> longest = Optional.empty();
        long next = 1;
        while (Long.compareUnsigned(next, last) <= 0) {
            if (!hold.keep()) {
                throw new IOException("the hold could not be pushed on while the scan ran");
            }
            byte[] body = ("{\"seq\":" + Long.toUnsignedString(next) + ",\"next_by_subj\":\""
                    + Subjects.KEY_WILDCARD + "\"}").getBytes(StandardCharsets.US_ASCII);
            Message reply;
            try {
                reply = connection.request(Subjects.MESSAGE_GET, body, Duration.ofSeconds(5));
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while reading the leases' TTLs", interrupted);
            }
            if (reply == null) {
                throw new IOException("the stream leader did not answer a read of the leases' TTLs");
            }
            MessageGetReply got = JetStreamReplies.parseGetReply(JSON, reply.getData());
            if (got.error() != null) {
                if (got.error().errorCode() == JetStreamApiError.NO_MESSAGE_FOUND) {
                    return longest;
                }
                throw new IOException("reading the leases' TTLs: " + got.error().description());
            }
            StoredMessage message = got.message();
            if (!message.freesKey()) {
                Optional<Duration> ttl = message.ttl();
                if (ttl.isPresent() && (longest.isEmpty() || ttl.get().compareTo(longest.get()) > 0)) {
                    longest = ttl;
                }
            }
            next = message.sequence() + 1;
        }
        return longest;
    }
}
