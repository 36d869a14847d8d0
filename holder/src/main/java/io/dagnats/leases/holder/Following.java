package io.dagnats.leases.holder;

import io.dagnats.leases.domain.LeaseKey;
import java.util.Optional;

/**
 * Follows who owns one key without campaigning for it ({@link LeaseHolder#follow}): the owner
 * dagnats' {@code owner} read names first, then each change the key's change events show, told
 * to an {@link OwnerListener} and kept as {@link #current()}.
 *
 * <p>Every event is placed by the key's own revisions (each names the revision it followed),
 * so an event that cannot follow what was known, a reconnect, or messages dropped by a slow
 * listener make it read {@code owner} again, and what it reports never goes back: no owner is
 * told twice in a row, and none whose tenure is not newer than one told already, unless its record
 * is newer than every record read of an owner told (a store that went back, below).
 *
 * <p><b>When the store goes back</b> (it came back without writes it had acknowledged), it may
 * name an owner older than one told, or one at or below the highest fence this holder ever had
 * confirmed for the key. Such an owner is not reported: the key is reported {@link KeyOwner.Free
 * free} ("no owner known") instead, with one log line, until an owner above every fence seen
 * appears: once dagnats has moved the key's revisions above the old ones (about one TTL), or, when
 * no proof reached dagnats, once the new owner's record is above every record read of an owner
 * told, whatever its tenure.
 *
 * <p><b>How stale a report can be.</b> With the events arriving, a change is told as soon as its
 * event is (a few milliseconds). Events are at most once, so it also reads the key again by
 * itself: 500 ms after a held lease's TTL has run out since it heard of the lease's last write
 * (an expiry is an event too, the server's marker, but one that may be lost as any other), and
 * after 30 s without news of the key. So with every event lost a report is at most 30 s old, or a
 * held lease's TTL plus 500 ms when that is shorter; while dagnats cannot be read, events that
 * follow what it knew are still told, and the rest waits for the next read.
 *
 * <p>The rules run on the holder's scheduler thread, and the listener is told on the holder's
 * listener thread, never on a NATS thread. {@link #current()} is published before the listener
 * hears of it.
 */
public interface Following extends AutoCloseable {

    LeaseKey key();

    /** The owner last told to the listener; empty until the first read has been answered. */
    Optional<KeyOwner> current();

    /** Stops following: no more reads, and the listener is told nothing more. Closing twice does nothing. */
    void close();
}
