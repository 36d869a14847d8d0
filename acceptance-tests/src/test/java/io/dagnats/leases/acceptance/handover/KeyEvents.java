package io.dagnats.leases.acceptance.handover;

import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The change events of one key as the test hears them ({@code dagnats.lease.changed.<key>}): each
 * as {@code <event> <holder>} ({@code expired -} for a marker), in order. Events are at most once,
 * so a test asserts what they show, never that one arrived: a moved leader is judged by the
 * processes' own records, the events say how it moved.
 */
final class KeyEvents implements AutoCloseable {

    private final Connection connection;
    private final Dispatcher dispatcher;
    private final List<String> heard = new CopyOnWriteArrayList<>();

    KeyEvents(Connection connection, String key) {
        this.connection = connection;
        this.dispatcher = connection.createDispatcher(event -> {
            String kind = event.getHeaders() == null ? null : event.getHeaders().getFirst("Dagnats-Lease-Event");
            String holder = event.getHeaders() == null ? null : event.getHeaders().getFirst("Dagnats-Lease-Holder");
            heard.add((kind == null ? "expired" : kind) + " " + (holder == null ? "-" : holder));
        });
        dispatcher.subscribe("dagnats.lease.changed." + key);
    }

    List<String> heard() {
        return List.copyOf(heard);
    }

    /** The events that moved or ended the lease: everything but renewals. */
    List<String> moves() {
        return heard().stream().filter(event -> !event.startsWith("renewed ")).toList();
    }

    @Override
    public void close() {
        connection.closeDispatcher(dispatcher);
    }
}
