package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.KeptLease;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.internal.CallFailures;
import io.dagnats.leases.holder.internal.CandidateCalls;
import io.dagnats.leases.holder.internal.FenceFloors;
import io.dagnats.leases.holder.internal.HandoverAnswer;
import io.dagnats.leases.holder.internal.HolderTelemetry;
import io.dagnats.leases.holder.internal.LeaseCalls;
import io.dagnats.leases.holder.internal.Ownership;
import io.dagnats.leases.holder.internal.Scheduler;
import io.dagnats.leases.holder.internal.Step;
import io.dagnats.leases.holder.internal.StepRunner;
import io.dagnats.leases.holder.internal.TenureWorks;
import io.dagnats.leases.protocol.LeaseChange;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * Keeps one key for a {@link KeptLease}: {@link KeeperRules} run by a {@link StepRunner}, which
 * holds the {@link KeeperState} and {@link KeeperMemory} and feeds each event through the rules on
 * the holder's scheduler thread; this class performs the effects they ask for: calls, timers, the
 * published {@link Ownership}, the listener, logs. It decides nothing itself.
 *
 * <p>The listener is told on {@code listenerThread}, so a slow {@code becameOwner} delays no renewal;
 * what it throws is logged. {@link Ownership} is published on the scheduler thread, before the
 * listener hears of it, and its queries read the clock themselves.
 */
public final class LeaseKeeper {

    /** Logs under the public handle's name, as it always has, so users' logging settings still apply. */
    private static final System.Logger LOG = System.getLogger("io.dagnats.leases.holder.KeptLease");

    private final KeeperRules rules;
    private final LeaseCalls client;
    private final MonotonicClock clock;
    private final Scheduler scheduler;
    private final Executor listenerThread;
    private final OwnershipListener listener;
    private final HolderTelemetry telemetry;
    private final Ownership ownership;
    /** The holder's floors per key, shared with its other keepers and followings; as each call was sent. */
    private final FenceFloors floors;
    private final FloorsAtSend atSend;
    /** Its state, memory and loop; it ends when the rules enter {@link KeeperState.Closed}, and nowhere else. */
    private final StepRunner<KeeperState, KeeperMemory, KeeperEffect, KeeperEvent> runner;
    /** Whether a rule threw already: the first is logged with its trace, later ones without; scheduler thread. */
    private boolean ruleFailed;
    private final CandidateCalls candidates; // asked on close, and at each renew while the strategy yields
    private final KeeperSight sight;

    LeaseKeeper(KeeperRules rules, LeaseCalls client, CandidateCalls candidates, MonotonicClock clock, Clock wallClock,
            Scheduler scheduler, Executor listenerThread, OwnershipListener listener, HolderTelemetry telemetry,
            FenceFloors floors) {
        this.candidates = candidates;
        this.sight = new KeeperSight(rules.key.value());
        this.rules = rules;
        this.client = client;
        this.clock = clock;
        this.scheduler = scheduler;
        this.listenerThread = listenerThread;
        this.listener = listener;
        this.telemetry = telemetry;
        this.ownership = new Ownership(clock);
        this.floors = floors;
        this.atSend = new FloorsAtSend(floors, rules.key);
        this.runner = new StepRunner<>(scheduler, new KeeperState.Idle(), KeeperMemory.FRESH,
                (state, memory, event) -> sight.observed(rules.next(state, memory, event,
                        new EventTime(clock.nanoTime(), wallClock.instant(), atSend.judging(event)))),
                this::afterBug, this::perform, KeeperState.Closed.class::isInstance);
    }

    /** Starts campaigning. Called once, by the holder, after it has subscribed to the key's changes. */
    void start() {
        submit(new KeeperEvent.Start());
    }

    /** A change event of the key (empty: no event of the contract); the floors hear it first ({@link FenceFloors#heard}). */
    void keyChanged(Optional<LeaseChange> change) {
        change.ifPresent(write -> floors.heard(rules.key, write, rules.self));
        submit(new KeeperEvent.Changed(change));
    }

    /** What others read of it: whether it waits (its candidacy's answer), why it last stopped owning. */
    KeeperSight sight() {
        return sight;
    }

    LeaseKey key() {
        return rules.key;
    }

    HolderId holder() {
        return rules.self.holder();
    }

    Ownership ownership() {
        return ownership;
    }

    /** Completes once the keeper has closed, whether or not it released in time. */
    CompletableFuture<Void> closedStage() {
        return runner.ended();
    }

    /** For tests: the phase, read on the scheduler thread. */
    KeeperState state() {
        return runner.state();
    }

    /** Begins closing on the scheduler thread; the stage completes once what was held is released. */
    CompletableFuture<Void> beginClose() {
        return beginClose(true);
    }

    /**
     * Begins closing without releasing: ownership ends now, nothing is renewed, the server's TTL frees
     * the key. For when this process may still be acting on the key through a tenure it handed out.
     */
    CompletableFuture<Void> beginAbandon() {
        return beginClose(false);
    }

    /**
     * The close, as an event of the machine; the stage completes when the machine reaches
     * {@link KeeperState.Closed}. A shut-down scheduler runs no event (the holder shuts it down
     * only after its keepers closed, or a user shut down the scheduler they gave): the machine can
     * no longer close, nor release, nor renew, so the close returns an ended stage at once, the
     * key left to the server's TTL, and the keeper's own closed stage is left as it is.
     */
    private CompletableFuture<Void> beginClose(boolean release) {
        if (scheduler.isShutdown()) {
            return CompletableFuture.completedFuture(null);
        }
        submit(new KeeperEvent.Close(release));
        return runner.ended();
    }

    /** An event from outside the keeper's own calls and timers: its candidacy's yes, and dagnats' grant of it. */
    void submit(KeeperEvent event) {
        runner.submit(event);
    }

    /** A rule's bug neither passes silently nor stalls: say so (trace once), end ownership, campaign again. */
    private Optional<Step<KeeperState, KeeperMemory, KeeperEffect>> afterBug(KeeperState state, KeeperMemory memory,
            KeeperEvent event, RuntimeException bug) {
        String line = "lease " + rules.key + ": no rule for " + event + " in " + state
                + "; ownership ends and the keeper campaigns again";
        LOG.log(ruleFailed ? System.Logger.Level.DEBUG : System.Logger.Level.ERROR, line, ruleFailed ? null : bug);
        ruleFailed = true;
        return Optional.of(rules.failSafe(state, memory));
    }

    private void perform(KeeperEffect effect) {
        if (effect instanceof KeeperEffect.SendAcquire send) {
            atSend.sent(send.call());
            client.acquire(rules.key, rules.self, rules.ttl).whenComplete((answer, failure) -> submit(failure == null
                    ? new KeeperEvent.AcquireAnswered(send.call(), answer) : failed(send.call(), failure)));
        } else if (effect instanceof KeeperEffect.SendRenew send) {
            atSend.sent(send.call());
            client.renew(rules.key, rules.self, send.fence(), Optional.of(rules.ttl)).whenComplete(
                    (answer, failure) -> submit(failure == null
                            ? new KeeperEvent.RenewAnswered(send.call(), answer) : failed(send.call(), failure)));
        } else if (effect instanceof KeeperEffect.Schedule schedule) {
            runner.submitAfter(schedule.event(), schedule.delayNanos());
        } else if (effect instanceof KeeperEffect.ReportWentBack report) {
            client.renew(WentBackProbe.of(rules.key), rules.self, report.floor(), Optional.of(rules.ttl));
        } else if (effect instanceof KeeperEffect.BecomeOwner become) {
            // Forwards at or below a fence an earlier tenure had are not this tenure's.
            ownership.begin(become.tenure(), floors.floor(rules.key));
            floors.raise(rules.key, become.tenure().fence());
            telemetry.ownershipChanged(rules.key.value(), true);
            TenureWorks tenureWork = sight.began();
            tell(target -> target.becameOwner(become.tenure(), tenureWork));
        } else if (effect instanceof KeeperEffect.Renew renew) {
            telemetry.renewed(rules.key.value(), renew.previous().nanosLeft(clock.nanoTime()));
            ownership.confirm(renew.tenure());
            floors.raise(rules.key, renew.tenure().fence());
            tell(target -> target.renewed(renew.tenure()));
        } else if (effect instanceof KeeperEffect.StopOwning stop) {
            // No forward is admitted from here on, and those still running are told to stop.
            ownership.end();
            sight.stopped(stop.reason());
            telemetry.ownershipChanged(rules.key.value(), false);
            sight.told(tell(target -> target.stoppedOwning(stop.reason())));
        } else if (effect instanceof KeeperEffect.Restate restate) {
            sight.restated(restate.reason()); // ownership ended already; the listener was told once, for good
        } else if (effect instanceof KeeperEffect.DrainHandlers drain) {
            sight.drained(ownership, drain.within())
                    .whenComplete((done, slow) -> submit(new KeeperEvent.Drained(drain.drain(), slow == null)));
        } else if (effect instanceof KeeperEffect.AskCandidates ask) {
            candidates.ask(rules.key, ask.window()).whenComplete((answered, failure) -> submit(
                    new KeeperEvent.CandidatesAnswered(ask.ask(), failure == null ? answered : List.of())));
        } else if (effect instanceof KeeperEffect.SendHandover send) {
            client.handover(rules.key, rules.self, send.held(), Claimant.of(send.to().holder(), send.to().incarnation()))
                    .whenComplete((answer, failure) -> submit(
                            failure == null ? new KeeperEvent.HandoverAnswered(send.call(), HandoverAnswer.of(answer))
                                    : failed(send.call(), failure)));
        } else if (effect instanceof KeeperEffect.SendRelease send) {
            client.release(rules.key, rules.self, send.held()).whenComplete(
                    (answer, failure) -> submit(new KeeperEvent.Released(send.call())));
        } else if (effect instanceof KeeperEffect.Log log) {
            LOG.log(log.level(), log.line());
        }
    }

    private static KeeperEvent.CallFailed failed(long call, Throwable failure) {
        return new KeeperEvent.CallFailed(call, CallFailures.finalError(failure));
    }

    /**
     * Tells the user's listener on its own thread; whatever it throws is logged and changes nothing.
     * The stage completes once the listener has returned (a handover waits for its stoppedOwning).
     */
    private CompletableFuture<Void> tell(Consumer<OwnershipListener> call) {
        CompletableFuture<Void> returned = new CompletableFuture<>();
        Runnable telling = () -> {
            try {
                call.accept(listener);
            } catch (RuntimeException | Error thrown) {
                LOG.log(System.Logger.Level.WARNING, "the ownership listener of " + rules.key
                        + " threw; the lease is kept as before", thrown);
            } finally {
                returned.complete(null);
            }
        };
        try {
            listenerThread.execute(telling);
        } catch (RejectedExecutionException stopped) {
            returned.complete(null); // the holder's listener thread is gone: nobody is left to tell
        }
        return returned;
    }
}
