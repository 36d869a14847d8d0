package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.domain.AttachedRecord;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * Where a leader read tells the {@code freed} events that it judged an attached key free (ADR-043):
 * its member tenure has ended. The server writes no expiry marker for a lease whose expired message a
 * read removed first (nats-server expires on access too), so without this a member read at the wrong
 * moment would leave its keys without their events. Only ever a hint: nothing that answers a caller
 * waits for it.
 */
public final class DeadAttachments {

    private volatile BiConsumer<AttachedRecord, Boolean> listener = (record, ended) -> { };

    /**
     * From a read: {@code record} is free by the liveness rule. Returns at once.
     *
     * @param tenureEnded the member read showed the tenure over (the member free, or in a later tenure),
     *                    so every key attached to that tenure or an earlier one is free too; false when the
     *                    member is in that very tenure under another claimant, which only a record written
     *                    by other tools than dagnats can show: then only this record is freed
     */
    void found(AttachedRecord record, boolean tenureEnded) {
        listener.accept(record, tenureEnded);
    }

    /** The one listener (the freed events of this instance). */
    void listen(BiConsumer<AttachedRecord, Boolean> listener) {
        this.listener = Objects.requireNonNull(listener, "listener");
    }
}
