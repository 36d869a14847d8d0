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
    HANDED_OVER("handed-over");

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
