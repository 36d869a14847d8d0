package io.dagnats.leases.domain;

/** What a write did to a key; travels as the {@code Dagnats-Lease-Event} header. */
public enum LeaseEvent {
    ACQUIRED("acquired"),
    RENEWED("renewed"),
    RELEASED("released");

    private final String wireName;

    LeaseEvent(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
