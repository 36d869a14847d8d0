package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.domain.AttachedRecord;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Where a leader read tells the {@code freed} events that it judged an attached key free (ADR-043):
 * its member tenure has ended. The server writes no expiry marker for a lease whose expired message a
 * read removed first (nats-server expires on access too), so without this a member read at the wrong
 * moment would leave its keys without their events. Only ever a hint: nothing that answers a caller
 * waits for it.
 */
public final class DeadAttachments {

    private volatile Consumer<AttachedRecord> listener = record -> { };

    /** From a read: {@code record}'s member tenure is not live. Returns at once. */
    void found(AttachedRecord record) {
        listener.accept(record);
    }

    /** The one listener (the freed events of this instance). */
    void listen(Consumer<AttachedRecord> listener) {
        this.listener = Objects.requireNonNull(listener, "listener");
    }
}
