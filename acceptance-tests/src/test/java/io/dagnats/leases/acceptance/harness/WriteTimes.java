package io.dagnats.leases.acceptance.harness;

import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Nats;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;

/**
 * When the server wrote each lease revision, on this machine's System.nanoTime, from the
 * change events every write is republished as (their {@code Nats-Time-Stamp}, the stream's
 * own time of the write). The ownership checker dates a tenure's start no earlier than the
 * write of its start revision: no holder can act under a revision before it exists. Server
 * data, not the holder library's: it tightens a start the holder's sampler could only date
 * back to a look before a stall. An event that never came leaves that start as the sampler
 * dated it.
 */
final class WriteTimes implements AutoCloseable {

    private final Map<Long, Long> nanosBySequence = new ConcurrentHashMap<>();
    private final Connection connection;

    private WriteTimes(Connection connection) {
        this.connection = connection;
    }

    /** Follows every change event on the server at {@code natsUrl} from now on. */
    static WriteTimes follow(String natsUrl) {
        try {
            Connection connection = Nats.connect(natsUrl);
            WriteTimes times = new WriteTimes(connection);
            Dispatcher events = connection.createDispatcher();
            events.subscribe(LeaseSubjects.CHANGED_WILDCARD, message -> {
                long receivedNanos = System.nanoTime();
                Instant received = Instant.now();
                var headers = message.getHeaders();
                // Read with the epoch as the fallback time: an event without the stream's time stamp
                // dates its write as long ago, which tightens nothing (never a time after the write).
                LeaseChange.read(message.getSubject(), name -> headers == null ? null : headers.getFirst(name),
                                Instant.EPOCH)
                        .ifPresent(change -> times.nanosBySequence.put(change.sequence(),
                                // The wall clock's distance back from receipt, on the monotonic clock; never after receipt.
                                receivedNanos - Math.max(0, Duration.between(change.time(), received).toNanos())));
            });
            connection.flush(Duration.ofSeconds(5));
            return times;
        } catch (IOException | InterruptedException | TimeoutException failed) {
            throw new IllegalStateException("cannot follow change events at " + natsUrl, failed);
        }
    }

    /** When revision {@code sequence} was written, if its event came. */
    OptionalLong writtenAt(long sequence) {
        Long nanos = nanosBySequence.get(sequence);
        return nanos == null ? OptionalLong.empty() : OptionalLong.of(nanos);
    }

    @Override
    public void close() throws InterruptedException {
        connection.close();
    }
}
