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
}
