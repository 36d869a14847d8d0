package io.dagnats.leases.holder;

/**
 * Told each change of a followed key's owner ({@link LeaseHolder#follow}). Called on the
 * holder's listener thread (never on a NATS thread), one call at a time and in order; keep it
 * quick. What it throws is logged and changes nothing.
 */
@FunctionalInterface
public interface OwnerListener {

    /**
     * The key's owner is {@code owner} now: first the owner the follower read when it started,
     * then each change, never the same owner twice in a row and never one older than a
     * {@link KeyOwner.Held} already told.
     */
    void ownerChanged(KeyOwner owner);

    /**
     * The owner handed the key to {@code successor} (ADR-042): a planned move, not a release and a
     * race nor an expiry; the successor owns it on dagnats' grant of its yes, or once its own renew confirms it. Told instead of
     * {@link #ownerChanged}, which it calls by default. Told only when the follower heard the
     * handed-over event; a read after a missed one tells {@link #ownerChanged}.
     */
    default void handedOver(KeyOwner.Held successor) {
        ownerChanged(successor);
    }
}
