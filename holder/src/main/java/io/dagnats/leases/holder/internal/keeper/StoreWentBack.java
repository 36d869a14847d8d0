package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.internal.FenceFloors;
import java.util.Optional;

/**
 * The rule that fences only grow in a holder process, for the keeper's rules (campaigning and
 * the owner phases): what the store answers is checked against the key's floor before it is
 * believed: the highest fence this process ever had confirmed, or one above the highest revision
 * it saw another write of the key at (a change event: revisions only grow, so a grant at or below
 * another's write is the store having come back without it), whichever is higher
 * ({@link FenceFloors#grantFloor}, passed in on {@link EventTime#floor()}).
 *
 * <ul>
 *   <li>A renew writes a new revision, so one answered at or below the floor (or at or below
 *       the fence it presented) is no write of this request: nothing it says is a tenure.</li>
 *   <li>An acquire (a grant, or the resolving of an unanswered renew) answered below the floor
 *       shows a record older than one this process confirmed. At the floor it is that very
 *       write, still current (an unanswered renew that never landed), and is believed.</li>
 * </ul>
 *
 * Either is "the store went back": ownership ends ({@link OwnershipListener.StopReason#STORE_WENT_BACK}),
 * one line is logged once per floor, dagnats is told at each such answer ({@link KeeperEffect.ReportWentBack}),
 * and the keeper campaigns again after the usual retry delay, never stalling on the answer.
 */
public final class StoreWentBack {

    private final KeeperContext rules;

    StoreWentBack(KeeperContext rules) {
        this.rules = rules;
    }

    /** The floor an answer must clear: the key's, or {@code least} (what this very phase holds) when higher. */
    static Fence floor(EventTime now, Fence least) {
        return now.floor().filter(least::isBelow).orElse(least);
    }

    /** Whether a renew answered {@code renewed} confirms nothing: it is at or below {@code floor}. */
    static boolean renewBelow(Fence renewed, Fence floor) {
        return !floor.isBelow(renewed);
    }

    /** Whether an acquire answered {@code revision} shows a record older than the key's floor. */
    static boolean acquireBelow(Fence revision, Optional<Fence> floor) {
        return floor.filter(revision::isBelow).isPresent();
    }

    /**
     * The store answered {@code offered} to {@code what}, at or below {@code floor}: stop owning
     * if {@code owning}, say so once per floor, and campaign again after the retry delay.
     */
    KeeperStep wentBack(KeeperStep.Builder step, String what, Fence offered, Fence floor, boolean owning) {
        if (owning) {
            step.then(new KeeperEffect.StopOwning(OwnershipListener.StopReason.STORE_WENT_BACK));
        }
        if (!step.memory().reportedFloor().equals(Optional.of(floor))) {
            step.then(new KeeperEffect.Log(System.Logger.Level.WARNING, "lease " + rules.key()
                    + ": the store went back: " + what + " answered fence " + offered + ", not above fence " + floor
                    + " this process had confirmed or seen written; not owning it, telling dagnats, and campaigning again"))
                    .reported(floor);
        }
        // Told at every such answer, not once: a report lost (dagnats restarting) or made while this
        // process's own older record still held the key proves nothing, and the next one may.
        step.then(new KeeperEffect.ReportWentBack(floor));
        return rules.waitFor(step, rules.retryDelay());
    }
}
