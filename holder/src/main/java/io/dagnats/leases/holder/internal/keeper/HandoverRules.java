package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.Candidate;
import io.dagnats.leases.holder.KeepOptions;
import io.dagnats.leases.holder.OwnershipListener.StopReason;
import io.dagnats.leases.holder.internal.HandoverAnswer;
import io.dagnats.leases.protocol.LeaseChange;
import java.time.Duration;
import java.util.Optional;

/**
 * The handover phases of the keeper's rules (ADR-042): the owner asks its key's candidates (on
 * close, and every renew while its strategy yields), steps down for the one chosen
 * ({@link Successors}), and hands the lease over only once its belief has ended: the listener told,
 * the tenure's work and the forward handlers returned. Then one handover call: handed over, it is a
 * waiter (or closed); {@code no_successor} or no answer, it does not own, and renews to own again
 * (a renew answered at a new fence is a write of its own), or, closing, releases; {@code lost}, it
 * is a waiter. The successor side is here too: a handed-over event naming this very process is a
 * grant to confirm with a renew of its own, at once, unless it said yes to a handover check just
 * before: then dagnats' grant of that yes ({@link KeeperRules}, ADR-046) is waited for a moment first.
 */
final class HandoverRules {

    /** How long an owner gathers its candidates' answers: short, as a close waits for it. */
    static final Duration CANDIDATE_WINDOW = Duration.ofMillis(250);
    /** After saying it waits to a handover check, ask within this much if no handed-over event came. */
    static final long EXPECTING_NANOS = 400 * KeeperContext.MILLI;
    /** dagnats waits at most a second for a yes and writes right after it: a grant comes within this of the yes, or not at all. */
    static final long YES_ANSWERED_NANOS = 2_000 * KeeperContext.MILLI;
    /** After the handed-over event of a yes, how long the grant is waited for before an acquire (then a renew) instead. */
    static final long GRANT_WAIT_NANOS = 100 * KeeperContext.MILLI;

    private final KeeperContext rules;
    private final KeepOptions options;

    HandoverRules(KeeperContext rules, KeepOptions options) {
        this.rules = rules;
        this.options = options;
    }

    /** The window candidates are gathered for: at most a sixth of the TTL, so an owner's ask ends well before its renew. */
    Duration window() {
        Duration sixth = rules.ttl().duration().dividedBy(6);
        return sixth.compareTo(CANDIDATE_WINDOW) < 0 ? sixth : CANDIDATE_WINDOW;
    }

    /** After a renew: ask the candidates when the strategy may yield to one. */
    void askIfYielding(KeeperStep.Builder step) {
        if (options.succession().yieldsWhileHealthy() && options.candidacy().isPresent()) {
            step.then(new KeeperEffect.AskCandidates(step.id(), window()));
        }
    }

    /** A close while owning, nothing in flight: ask who waits before ownership ends. */
    KeeperStep close(KeeperState.Owning owning, KeeperStep.Builder step) {
        long ask = step.id();
        return step.then(new KeeperEffect.AskCandidates(ask, window())).into(new KeeperState.Choosing(owning.current(), owning.timers(), ask));
    }

    /** Candidates answered while owning: step down for a better one, if the brakes allow. */
    KeeperStep offered(KeeperState.Owning owning, KeeperEvent.CandidatesAnswered answered, KeeperStep.Builder step,
            EventTime now) {
        Optional<Candidate> better = Successors.toYieldTo(rules.self(), answered.candidates(), options, now.nanos(),
                step.memory().lastYield());
        if (better.isEmpty()) {
            return step.into(owning);
        }
        step.yielded(now.nanos()).then(rules.info("lease " + rules.key() + ": stepping down for the preferred candidate "
                + better.get().holder() + " (" + options.succession() + ")"));
        return stepDown(step, owning.current(), better.get(), StopReason.PREFERRED_CANDIDATE, false);
    }

    KeeperStep choosing(KeeperState.Choosing choosing, KeeperEvent event, KeeperStep.Builder step, EventTime now) {
        Tenure tenure = choosing.current();
        if (event instanceof KeeperEvent.Close close && !close.release()) {
            // Abandoned while its close asked who waits: nothing is handed over or released.
            return step.then(new KeeperEffect.StopOwning(StopReason.ABANDONED)).into(new KeeperState.Closed());
        }
        if (event instanceof KeeperEvent.Changed changed && rules.endsOrTakes(changed, tenure.start())) {
            // Told why as the owner phases tell it: a revoke is no fault of this process.
            boolean revoked = changed.change().orElseThrow().kind() == LeaseChange.Kind.REVOKED;
            return step.then(new KeeperEffect.StopOwning(revoked ? StopReason.REVOKED : StopReason.LOST))
                    .into(new KeeperState.Closed());
        }
        if (event instanceof KeeperEvent.DeadlineDue due && due.timers() == choosing.timers()) {
            return chosenTooLate(choosing, step, now);
        }
        if (!(event instanceof KeeperEvent.CandidatesAnswered answered) || answered.ask() != choosing.ask()) {
            return step.into(choosing);
        }
        Optional<Candidate> best = Successors.onClose(rules.self(), answered.candidates(), options);
        if (best.isPresent()) {
            return stepDown(step, tenure, best.get(), StopReason.HANDED_OVER, true);
        }
        step.then(new KeeperEffect.StopOwning(StopReason.RELEASED));
        return ClosingRules.drainThenRelease(step, tenure.fence());
    }

    /**
     * The deadline came before the candidates answered: ownership ends as in every owner phase, and
     * the close releases what it held once the tenure's work returned (a release at that fence only
     * lands while nobody else has written the key). An early timer looks again at the deadline.
     */
    private static KeeperStep chosenTooLate(KeeperState.Choosing choosing, KeeperStep.Builder step, EventTime now) {
        Tenure tenure = choosing.current();
        if (tenure.actingAsOwner(now.nanos())) {
            return step.then(new KeeperEffect.Schedule(new KeeperEvent.DeadlineDue(choosing.timers()),
                    tenure.nanosLeft(now.nanos()))).into(choosing);
        }
        step.then(new KeeperEffect.StopOwning(StopReason.DEADLINE_PASSED));
        return ClosingRules.drainThenRelease(step, tenure.fence());
    }

    /** Ownership ends now (the listener told why); the handover waits for the tenure's work. */
    private KeeperStep stepDown(KeeperStep.Builder step, Tenure tenure, Candidate to, StopReason why, boolean closing) {
        step.then(new KeeperEffect.StopOwning(why));
        long drain = step.id();
        step.then(new KeeperEffect.DrainHandlers(drain, options.handoverBound()));
        return step.into(new KeeperState.Yielding(tenure.start(), tenure.fence(), to, drain, closing));
    }

    /**
     * An event in {@link KeeperState.Yielding} or {@link KeeperState.HandingOver}. A close makes the
     * handover a close's; an abandon ({@code close(false)}: this process may still act through a
     * tenure it handed out) moves nothing more, the key left to the TTL (a handover already sent may
     * still land: the successor then owns only after a renew of its own, as ever); abandoned before
     * its handover was sent, the listener, told it stepped down to hand over, is told ABANDONED.
     */
    KeeperStep handover(KeeperState.Handover state, KeeperEvent event, KeeperStep.Builder step, EventTime now) {
        if (event instanceof KeeperEvent.Close close) {
            if (!close.release() && state instanceof KeeperState.Yielding) {
                ClosingRules.restateAbandoned(step); // told it hands over: it will not
            }
            return step.into(close.release() ? closing(state) : new KeeperState.Closed());
        }
        if (state instanceof KeeperState.Yielding yielding) {
            return yielding(yielding, event, step, now);
        }
        KeeperState.HandingOver handing = (KeeperState.HandingOver) state;
        if (event instanceof KeeperEvent.HandoverAnswered answered && answered.call() == handing.call()) {
            return answered(handing, answered.answer(), step, now);
        }
        if (event instanceof KeeperEvent.CallFailed failed && failed.call() == handing.call()) {
            // Maybe written: a renew at the revision sent answers lost if it was (release likewise).
            failed.finalError().ifPresent(error -> step.then(rules.warning(error)));
            return notHandedOver(handing, step, now);
        }
        return step.into(handing);
    }

    private KeeperStep yielding(KeeperState.Yielding yielding, KeeperEvent event, KeeperStep.Builder step, EventTime now) {
        if (event instanceof KeeperEvent.Changed changed && rules.endsOrTakes(changed, yielding.held())) {
            return yielding.closing() ? step.into(new KeeperState.Closed())
                    : rules.waitFor(step, rules.jitter().millis(KeeperContext.AGAIN_JITTER_MS) * KeeperContext.MILLI);
        }
        if (!(event instanceof KeeperEvent.Drained drained) || drained.drain() != yielding.drain()) {
            return step.into(yielding); // the end of another drain is of a tenure already left
        }
        if (!drained.inTime()) {
            // Work of the ended tenure may still act: nobody else may own the key while it does.
            step.then(new KeeperEffect.Log(System.Logger.Level.WARNING, "lease " + rules.key() + ": the tenure's work"
                    + " or a forward handler still runs " + options.handoverBound().toMillis() + " ms after ownership ended;"
                    + (yielding.closing() ? " the lease is left to the server's TTL" : " the lease is not handed over")));
            return yielding.closing() ? step.into(new KeeperState.Closed())
                    : rules.prove(step, yielding.start(), yielding.held(), now);
        }
        long call = step.id();
        return step.then(new KeeperEffect.SendHandover(call, yielding.held(), yielding.to())).into(
                new KeeperState.HandingOver(yielding.start(), yielding.held(), yielding.to(), call, yielding.closing()));
    }

    private KeeperStep answered(KeeperState.HandingOver handing, HandoverAnswer answer, KeeperStep.Builder step,
            EventTime now) {
        if (answer == HandoverAnswer.NO_SUCCESSOR) {
            step.then(rules.info("lease " + rules.key() + ": " + handing.to().holder() + " did not take it (no successor)"));
            return notHandedOver(handing, step, now);
        }
        if (handing.closing()) {
            return step.into(new KeeperState.Closed());
        }
        // Handed over (or lost meanwhile): a waiter, stepping back a third of the TTL for the successor.
        return rules.waitFor(step, answer == HandoverAnswer.HANDED_OVER ? rules.ttlNanos() / 3
                : rules.jitter().millis(KeeperContext.AGAIN_JITTER_MS) * KeeperContext.MILLI);
    }

    /** Not handed over, or not known to be: a close releases; a yield renews, owning again only on a write of its own. */
    private KeeperStep notHandedOver(KeeperState.HandingOver handing, KeeperStep.Builder step, EventTime now) {
        if (handing.closing()) {
            long call = step.id();
            return step.then(new KeeperEffect.SendRelease(call, handing.held())).into(new KeeperState.Releasing(call));
        }
        return rules.prove(step, handing.start(), handing.held(), now);
    }

    private static KeeperState closing(KeeperState.Handover state) {
        if (state instanceof KeeperState.Yielding yielding) {
            return new KeeperState.Yielding(yielding.start(), yielding.held(), yielding.to(), yielding.drain(), true);
        }
        KeeperState.HandingOver handing = (KeeperState.HandingOver) state;
        return new KeeperState.HandingOver(handing.start(), handing.held(), handing.to(), handing.call(), true);
    }

    /**
     * A waiter's event that says the lease is being handed to this process: the handed-over event
     * naming it (confirmed with a renew at once, owner only once that renew answers; or, after a
     * recent yes, a short wait for dagnats' grant, then an acquire), or its own yes to a handover
     * check (remembered, and an acquire soon in case the event is lost).
     */
    Optional<KeeperStep> successor(KeeperState state, KeeperEvent event, KeeperStep.Builder step, EventTime now) {
        if (event instanceof KeeperEvent.Changed changed && handedToMe(changed)) {
            if (grantComing(step.memory(), now)) {
                // The event is republished by the server as the write lands, before dagnats has its
                // acknowledgment and grants the yes: a renew now would only race the grant.
                return Optional.of(state instanceof KeeperState.Acquiring acquiring
                        ? step.into(new KeeperState.Acquiring(acquiring.call(), true))
                        : rules.waitFor(step, GRANT_WAIT_NANOS));
            }
            Fence start = new Fence(changed.change().orElseThrow().sequence());
            return Optional.of(rules.prove(step, start, start, now));
        }
        if (event instanceof KeeperEvent.Expecting expecting && state instanceof KeeperState.Waiting) {
            return Optional.of(rules.waitFor(saidYes(step, expecting, now), EXPECTING_NANOS));
        }
        if (event instanceof KeeperEvent.Expecting expecting && state instanceof KeeperState.Acquiring acquiring) {
            // Its answer may predate the handover: ask again soon rather than wait for an expiry.
            return Optional.of(saidYes(step, expecting, now).into(new KeeperState.Acquiring(acquiring.call(), true)));
        }
        return Optional.empty();
    }

    /** A yes is remembered only when dagnats will grant it: a check that named no id is answered by no grant. */
    private static KeeperStep.Builder saidYes(KeeperStep.Builder step, KeeperEvent.Expecting expecting, EventTime now) {
        return expecting.granting() ? step.saidYes(now.nanos()) : step;
    }

    /** Whether this process said yes to a handover check so lately that dagnats' grant of it is on its way. */
    private static boolean grantComing(KeeperMemory memory, EventTime now) {
        return memory.saidYes().isPresent() && now.nanos() - memory.saidYes().getAsLong() < YES_ANSWERED_NANOS;
    }

    private boolean handedToMe(KeeperEvent.Changed changed) {
        return changed.change().filter(change -> change.kind() == LeaseChange.Kind.HANDED_OVER)
                .filter(change -> change.claimant().equals(Optional.of(rules.self()))).isPresent();
    }
}
