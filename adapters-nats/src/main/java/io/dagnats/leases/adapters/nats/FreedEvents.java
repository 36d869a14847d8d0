package io.dagnats.leases.adapters.nats;

import com.fasterxml.jackson.core.JsonFactory;
import io.dagnats.leases.application.AttachedKeys;
import io.dagnats.leases.application.KnownLeases;
import io.dagnats.leases.application.LeaseListing;
import io.dagnats.leases.domain.AttachedRecord;
import io.dagnats.leases.domain.FreedAttachment;
import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.domain.LeaseEvent;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.LeaseHeaders;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.impl.Headers;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The {@code freed} events of keys attached to a member lease (ADR-043). Every instance hears every
 * change event (no queue group) and keeps, in memory, which keys are attached to which member
 * ({@link AttachedIndex}), learnt from {@code attached} and {@code moved} events and, at start, from
 * one listing walk. When a member key is written in a way that ends its earlier tenures (released,
 * revoked, expired by dagnats or by the server's marker, removed by hand, or acquired anew), every key
 * attached to a tenure that began before that write gets the release form, compare-and-set on its own
 * revision, header {@code Dagnats-Lease-Event: freed}.
 *
 * <p>Nothing here is needed for safety: the keys were free by the liveness rule from the member's end,
 * and a freed write lands only on the very record it names. A missed event or an index that is not
 * complete only delays or loses an event; several instances writing the same one is one applied write
 * and some refused ones. A renew, the hot path, is recognised by its header alone: nothing is parsed.
 */
public final class FreedEvents implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(FreedEvents.class.getName());
    /** How many leases one listing page looks at while the index is built. */
    private static final int PAGE = 1_000;

    private final Connection connection;
    private final AttachedKeys keys;
    private final LeaseListing listing;
    private final AttachedIndex index;
    private final JsonFactory json = new JsonFactory();
    private Dispatcher dispatcher;

    public FreedEvents(Connection connection, AttachedKeys keys, LeaseListing listing, DeadAttachments dead) {
        dead.listen(this::foundDead);
        this.connection = Objects.requireNonNull(connection, "connection");
        this.keys = Objects.requireNonNull(keys, "keys");
        this.listing = Objects.requireNonNull(listing, "listing");
        this.index = new AttachedIndex(keys.memory());
    }

    /** Subscribes to the change events, then builds the index from a listing walk in the background. */
    public synchronized void start() {
        dispatcher = connection.createDispatcher(this::onChange);
        dispatcher.subscribe(LeaseSubjects.CHANGED_WILDCARD);
        walk(0, keys.memory()).whenComplete((done, failed) -> index.walked()).exceptionally(failed -> {
            LOG.log(System.Logger.Level.WARNING, "dagnats could not list the attached keys at start (" + failed
                    + "): freed events come only for keys attached from now on");
            return null;
        });
    }

    private CompletionStage<Void> walk(long from, KnownLeases.Era era) {
        index.in(era);
        return listing.page(KeyPrefix.ALL, from, PAGE).thenCompose(page -> {
            page.leases().forEach(lease -> FreedAttachment.recordOf(lease).ifPresent(record -> index.listed(record, era)));
            return page.next().isPresent() ? walk(page.next().getAsLong(), era) : CompletableFuture.completedFuture(null);
        });
    }

    /**
     * A read judged {@code record} free. When its member tenure has ended, so has every earlier tenure of
     * the member (tenures follow one another), and every key attached to one of them is freed too.
     */
    private void foundDead(AttachedRecord record, boolean tenureEnded) {
        index.in(keys.memory());
        long after = record.attachment().memberTenure().revision() + 1;
        List<AttachedRecord> ended = tenureEnded
                ? new ArrayList<>(index.endedBefore(record.attachment().member(), after)) : new ArrayList<>();
        if (ended.stream().noneMatch(known -> known.key().equals(record.key()))) {
            ended.add(record);
        }
        keys.free(ended, after, index.era());
    }

    private void onChange(Message event) {
        try {
            changed(event);
        } catch (RuntimeException bug) {
            LOG.log(System.Logger.Level.WARNING, "dagnats could not read a change event on " + event.getSubject()
                    + " for attached keys: " + bug);
        }
    }

    private void changed(Message event) {
        Headers headers = event.getHeaders();
        Optional<LeaseKey> key = Subjects.keyOfChange(event.getSubject());
        if (headers == null || key.isEmpty()) {
            return;
        }
        String named = headers.getFirst(LeaseHeaders.EVENT);
        Optional<LeaseEvent> written = named == null ? Optional.empty() : LeaseEvent.fromWireName(named);
        if (written.isPresent() && written.get() == LeaseEvent.RENEWED) {
            return; // the tenure goes on: nothing attached to it changes
        }
        long sequence;
        try {
            sequence = Long.parseLong(headers.getFirst(Subjects.HEADER_SEQUENCE));
        } catch (NumberFormatException | NullPointerException unnumbered) {
            return;
        }
        boolean endsTenures = written.isPresent()
                || headers.getFirst(Subjects.HEADER_MARKER_REASON) != null
                || headers.getFirst(Subjects.HEADER_KV_OPERATION) != null;
        if (!endsTenures) {
            return; // a put by other tools: not a change this service can read
        }
        index.in(keys.memory());
        index.rewritten(key.get(), sequence);
        if (written.isPresent() && (written.get() == LeaseEvent.ATTACHED || written.get() == LeaseEvent.MOVED)) {
            attached(key.get(), sequence, event).ifPresent(index::attached);
        }
        List<AttachedRecord> ended = index.endedBefore(key.get(), sequence);
        if (!ended.isEmpty()) {
            keys.free(ended, sequence, index.era()).whenComplete((applied, failed) -> LOG.log(System.Logger.Level.DEBUG,
                    () -> "dagnats: " + applied + " of " + ended.size() + " keys attached to " + key.get() + " freed"));
        }
    }

    private Optional<AttachedRecord> attached(LeaseKey key, long sequence, Message event) {
        StoredMessage record = new StoredMessage(sequence, Subjects.keySubject(key), Instant.EPOCH, Map.of(),
                event.getData());
        try {
            return LeaseRecord.decodeAny(json, key, record) instanceof LeaseRecord.Decoded.Attached attached
                    ? Optional.of(attached.record()) : Optional.empty();
        } catch (IOException unreadable) {
            return Optional.empty();
        }
    }

    @Override
    public synchronized void close() {
        if (dispatcher != null && connection.getStatus() != Connection.Status.CLOSED) {
            connection.closeDispatcher(dispatcher);
        }
    }
}
