package io.dagnats.leases.holder.internal;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.LeaseChange;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per key, what this process knows of the key's revisions, for its whole life: the highest
 * fence it ever had confirmed (the fence of a tenure it owned the key under, raised as a grant's
 * renew or a renewal confirms one), and the highest revision it saw the key written at (a change
 * event or a listing), and whether that write held the key here. One per {@code LeaseHolder},
 * shared by its keepers, shard sets and followings; a key kept, dropped and kept again keeps both.
 *
 * <p>Why: the store's revision is the fence, and a store that comes back without writes it
 * had acknowledged (a {@code kill -9} with default sync, a store dir restored from a copy)
 * hands out revisions again that this process already sent downstream, or saw another holder
 * own. Revisions only grow, so whatever the store grants below {@link #grantFloor} is "the
 * store went back", never a tenure (the keepers' {@code StoreWentBack}, and the shard sets' floors). One
 * entry per key ever kept, confirmed or seen written.
 */
public final class FenceFloors {

    private final Map<LeaseKey, Fence> highest = new ConcurrentHashMap<>();
    private final Map<LeaseKey, Written> written = new ConcurrentHashMap<>();

    /**
     * The highest write of a key seen, by anyone: its revision, and whether it held the key here
     * (then a grant at that very revision is that write; else it is another's, and a grant at it
     * is the store going back).
     */
    private record Written(Fence revision, boolean here) {
    }

    /** The highest fence confirmed for {@code key}, or empty when this process never owned it. */
    public Optional<Fence> floor(LeaseKey key) {
        return Optional.ofNullable(highest.get(key));
    }

    /** A tenure under {@code confirmed} was confirmed: the floor of {@code key} is at least that now. */
    public void raise(LeaseKey key, Fence confirmed) {
        highest.merge(key, confirmed, (known, next) -> known.isBelow(next) ? next : known);
    }

    /**
     * {@code key} was seen written at {@code revision}, holding it here or not ({@code here}): no
     * later grant below it is a tenure, nor one at it unless that write held it here. A keeper
     * tells only the writes that do not hold its key for this very process (its own writes are
     * confirmed by their answers, which may come after their events).
     */
    public void written(LeaseKey key, Fence revision, boolean here) {
        written.merge(key, new Written(revision, here), (known, seen) -> known.revision().isBelow(seen.revision()) ? seen
                : known.revision().equals(seen.revision()) ? new Written(known.revision(), known.here() && seen.here())
                : known);
    }

    /**
     * A change event of {@code key} heard by a keeper of {@code self}: a write that does not hold the key for
     * {@code self} (another's, or any that ends the lease) is {@link #written} not here. The
     * keeper's own writes are left to their answers, which may come after their events: a renew's
     * event raising the floor to its own revision would make its answer look like the store
     * going back. An event that names no incarnation is taken as {@code self}'s when it names its holder.
     */
    public void heard(LeaseKey key, LeaseChange write, Claimant self) {
        boolean heldHere = !write.kind().endsLease() && heldBy(write.holder(), write.incarnation(), self);
        if (!heldHere && write.sequence() != 0) {
            written(key, new Fence(write.sequence()), false);
        }
    }

    /**
     * Whether a write naming {@code holder} and {@code incarnation} holds its key for {@code self}:
     * its holder id, and its incarnation when the write names one. Another process under the same
     * holder id is another holder (ADR-034).
     */
    public static boolean heldBy(Optional<HolderId> holder, Optional<Incarnation> incarnation, Claimant self) {
        return holder.filter(self.holder()::equals).isPresent()
                && (incarnation.isEmpty() || incarnation.equals(self.incarnation()));
    }

    /** The highest write of {@code key} seen, if any. */
    private Optional<Written> highestWritten(LeaseKey key) {
        return Optional.ofNullable(written.get(key));
    }

    /**
     * The lowest fence a grant of {@code key} may have and still be a tenure: the highest fence
     * confirmed, the highest write seen held here, or one above the highest write seen of
     * another. Empty when this process knows nothing of the key.
     */
    public Optional<Fence> grantFloor(LeaseKey key) {
        Optional<Fence> fromWrites = highestWritten(key)
                .map(seen -> seen.here() || seen.revision().revision() == -1L ? seen.revision()
                        : new Fence(seen.revision().revision() + 1));
        Optional<Fence> confirmed = floor(key);
        if (fromWrites.isEmpty()) {
            return confirmed;
        }
        return confirmed.filter(fromWrites.get()::isBelow).or(() -> fromWrites);
    }
}
