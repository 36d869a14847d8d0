package io.dagnats.leases.holder.internal.follow;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.holder.Following;
import io.dagnats.leases.holder.KeyOwner;
import io.dagnats.leases.holder.internal.FenceFloors;
import java.util.Optional;

/**
 * Which owner a {@link Following} reports, for {@link FollowRules}. An owner is not reported when
 * its tenure is not newer than one reported already (another owner at or below it) and its record
 * is not above every record read of an owner reported, nor when its record is at or below the
 * highest fence this process ever had confirmed for the key ({@link FenceFloors}; at the floor,
 * only this process's own record may be). Either means the store went back (it came back without
 * writes it had acknowledged). A record above every one read before is a newer write whatever its
 * tenure, so an owner whose tenure repeats an old one after a rollback is reported once its
 * renewals pass the records seen.
 *
 * <p>Such an owner is reported as the key {@link KeyOwner.Free free}, "no owner known", with one
 * log line, rather than staying on the last owner told, which the store no longer has: the
 * follower does not stay stuck. It goes on reading, and reports the next owner above the floor,
 * which after a rollback appears once dagnats has moved the key's revisions above every earlier
 * one (about one TTL), or once the new owner's own renewals pass the revisions seen.
 */
final class FollowReports {

    private final LeaseKey key;
    /** This process, whose own record at the floor is the write it confirmed; empty for none. */
    private final Optional<Claimant> self;

    FollowReports(LeaseKey key, Optional<Claimant> self) {
        this.key = key;
        this.self = self;
    }

    /** Reports {@code known}'s owner unless it was the last told, or reports the key free if the owner went back. */
    void tell(FollowStep.Builder step, FollowState.Knowledge known) {
        Optional<String> wentBack = wentBack(step, known);
        KeyOwner owner = wentBack.isPresent() ? new KeyOwner.Free(key) : known.owner();
        if (step.memory().told().equals(Optional.of(owner))) {
            if (owner instanceof KeyOwner.Held) {
                step.readAgain(known.last().orElse(0)); // its renewals are records read of an owner reported
            }
            return;
        }
        wentBack.ifPresent(why -> step.then(new FollowEffect.Log(System.Logger.Level.WARNING, "following " + key
                + ": read " + known.owner() + ", " + why + "; not reported: the key is reported free until an owner"
                + " above it is seen")));
        step.told(owner, known.last().orElse(0), wentBack.isEmpty() && known.handedOver());
    }

    private Optional<String> wentBack(FollowStep.Builder step, FollowState.Knowledge known) {
        if (!(known.owner() instanceof KeyOwner.Held held)) {
            return Optional.empty();
        }
        Optional<KeyOwner.Held> highest = step.memory().highest();
        // A record above every one read of a reported owner is a write newer than all of them, whatever
        // its tenure: after a rollback no skip ever came (the proof never reached dagnats), a real new
        // owner's tenure may repeat an old one, and its renewals are what show it is current.
        boolean newerThanAllTold = known.last().isPresent()
                && Long.compareUnsigned(known.last().getAsLong(), step.memory().highestRevision()) > 0;
        if (highest.isPresent() && !highest.get().equals(held) && !highest.get().tenure().isBelow(held.tenure())
                && !newerThanAllTold) {
            return Optional.of("not after fence " + highest.get().tenure() + " already reported");
        }
        if (step.floor().isEmpty() || known.last().isEmpty()) {
            return Optional.empty();
        }
        Fence floor = step.floor().get();
        Fence revision = new Fence(known.last().getAsLong());
        boolean mine = self.filter(me -> me.holder().equals(held.holder())
                && me.incarnation().equals(held.incarnation())).isPresent();
        if (revision.isBelow(floor) || !mine && !floor.isBelow(revision)) {
            return Optional.of("at revision " + revision + ", not above fence " + floor
                    + " this process confirmed for it (the store went back)");
        }
        return Optional.empty();
    }
}
