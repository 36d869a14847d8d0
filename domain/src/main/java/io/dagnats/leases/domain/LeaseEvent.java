package io.dagnats.leases.domain;

import java.util.Optional;

/** What a write did to a key; travels as the {@code Dagnats-Lease-Event} header. */
public enum LeaseEvent {
    ACQUIRED("acquired"),
    RENEWED("renewed"),
    RELEASED("released"),
    /** An operator freed the key over its holder's head ({@code api.leases.revoke}). */
    REVOKED("revoked"),
    /**
     * The service removed a lease its store still showed long after the store's own expiry on the
     * server's clock ({@link StoreExpiry}): the key is free, as after the server's expiry marker.
     */
    EXPIRED("expired"),
    /**
     * The owner handed the lease to a named successor in one compare-and-set ({@code api.leases.handover},
     * ADR-042): a new tenure of the successor, at a higher fence, that it owns only after its own renew.
     */
    HANDED_OVER("handed-over"),
    /** A key was attached to a member lease (ADR-043): it lives by that lease from this write. */
    ATTACHED("attached"),
    /** An attached key was attached to another member lease, for another holder (ADR-043). */
    MOVED("moved"),
    /**
     * The service ended an attached key whose member lease had ended (expired, released, revoked):
     * the key was already free by the liveness rule; this write only tells its watchers (ADR-043).
     */
    FREED("freed");

    private final String wireName;

    LeaseEvent(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** The event a {@code Dagnats-Lease-Event} value names; empty for a value this version does not know. */
    public static Optional<LeaseEvent> fromWireName(String value) {
        for (LeaseEvent event : values()) {
            if (event.wireName.equals(value)) {
                return Optional.of(event);
            }
        }
        return Optional.empty();
    }
}
