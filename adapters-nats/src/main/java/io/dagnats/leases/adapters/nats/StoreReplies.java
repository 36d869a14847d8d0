package io.dagnats.leases.adapters.nats;

import com.fasterxml.jackson.core.JsonFactory;
import io.dagnats.leases.application.LeaseFailure;
import io.dagnats.leases.application.LeaseStore.WriteOutcome;
import io.dagnats.leases.domain.AttachedRecord;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseWrite;
import io.dagnats.leases.domain.StoreExpiry;
import io.nats.client.Message;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/**
 * JetStream's answers to a lease read (a message get) and a lease write (a publish ack), translated
 * once into what the core understands, each under the {@link BucketSession} its request was sent in.
 */
final class StoreReplies {

    private final JsonFactory json = new JsonFactory();

    /**
     * What a leader read showed, and, for a lease the store forgot to expire, how long ago it should have.
     *
     * @param attached a key attached to a member lease (ADR-043): {@code state} is then what it is if the
     *                 member is not live (free at its revision), and the caller must judge it by the
     *                 member's record ({@link io.dagnats.leases.domain.AttachedLiveness}) before answering
     */
    record Read(KeyState state, Lease forgotten, Optional<Duration> forgottenFor, Optional<StoreExpiry> expiry,
            Optional<AttachedRecord> attached) {

        static Read of(KeyState state) {
            return new Read(state, null, Optional.empty(), Optional.empty(), Optional.empty());
        }
    }

    Read toRead(BucketSession session, LeaseKey key, Message reply) {
        MessageGetReply get;
        try {
            get = JetStreamReplies.parseGetReply(json, reply.getData());
        } catch (IOException | RuntimeException garbled) {
            throw new LeaseFailure(ErrorKind.INTERNAL, "JetStream's answer to a read of " + key + " was unreadable", garbled);
        }
        if (get.error() != null) {
            if (get.error().errorCode() == JetStreamApiError.NO_MESSAGE_FOUND) {
                return Read.of(new KeyState.Free(key, 0));
            }
            if (get.error().errorCode() == JetStreamApiError.STREAM_NOT_FOUND) {
                session.lost("the stream " + Subjects.STREAM + " was not found on a read of " + key);
                throw new LeaseFailure(ErrorKind.UNAVAILABLE, "the leases bucket is gone; checking it again");
            }
            throw get.error().failure("read " + key);
        }
        StoredMessage message = get.message();
        session.check(message.sequence(), "a read of " + key);
        if (message.freesKey()) {
            return Read.of(new KeyState.Free(key, message.sequence()));
        }
        LeaseRecord.Decoded decoded;
        try {
            decoded = LeaseRecord.decodeAny(json, key, message);
        } catch (IOException corrupt) {
            throw new LeaseFailure(ErrorKind.INTERNAL, corrupt.getMessage(), corrupt);
        }
        if (decoded instanceof LeaseRecord.Decoded.Attached attached) {
            // No TTL of its own, so nothing the store could forget to expire: its member's read decides.
            return new Read(new KeyState.Free(key, message.sequence()), null, Optional.empty(), Optional.empty(),
                    Optional.of(attached.record()));
        }
        Lease lease = ((LeaseRecord.Decoded.Plain) decoded).lease();
        // Judged on the server's clock only: its stamp and TTL against its own time, never this host's.
        Optional<Duration> forgotten = message.forgottenFor(session.serverTimeAtLeast());
        return new Read(new KeyState.Held(lease), lease, forgotten, message.expiry(), Optional.empty());
    }

    WriteOutcome toWriteOutcome(BucketSession session, LeaseWrite write, Message reply, long confirmedAtSend) {
        PublishAck ack = publishAck(reply, "JetStream's answer to a write of " + write.key() + " was unreadable");
        if (ack.error() != null) {
            if (ack.error().wrongLastSequence()) {
                return new WriteOutcome.Conflict();
            }
            throw ack.error().failure("write " + write.key());
        }
        session.check(ack.sequence(), "a write of " + write.key());
        session.checkAck(ack.sequence(), confirmedAtSend, "a write of " + write.key());
        return new WriteOutcome.Written(new Fence(ack.sequence()));
    }

    /** A publish ack; an unreadable one fails {@link ErrorKind#INTERNAL} with {@code unreadable}. */
    PublishAck publishAck(Message reply, String unreadable) {
        try {
            return JetStreamReplies.parsePublishAck(json, reply.getData());
        } catch (IOException | RuntimeException garbled) {
            throw new LeaseFailure(ErrorKind.INTERNAL, unreadable, garbled);
        }
    }

    JsonFactory json() {
        return json;
    }
}
