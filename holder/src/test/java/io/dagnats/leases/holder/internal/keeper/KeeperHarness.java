package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.KeepOptions;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.internal.CandidateCalls;
import io.dagnats.leases.holder.internal.FenceFloors;
import io.dagnats.leases.holder.internal.HolderTelemetry;
import io.dagnats.leases.holder.internal.Jitter;
import io.dagnats.leases.holder.internal.ManualScheduler;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseHeaders;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.dagnats.leases.protocol.LeaseView;
import io.opentelemetry.api.OpenTelemetry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * The one harness of the keeper's tests: a {@link LeaseKeeper} of key {@code k} for holder
 * {@code me} (incarnation {@code run-1}) against {@link ScriptedCalls}, a {@link ManualScheduler}
 * that is also its monotonic clock, the real wall clock (answers state expiries on it), no
 * jitter, and a listener told on the test's own thread that records what it hears in {@link #told}.
 */
abstract class KeeperHarness {

    static final LeaseKey KEY = new LeaseKey("k");
    static final HolderId ME = new HolderId("me");
    static final Incarnation RUN = new Incarnation("run-1");
    static final Claimant SELF = Claimant.of(ME, RUN);
    static final LeaseTtl TTL = new LeaseTtl(15_000);
    static final Duration MARGIN = Duration.ofMillis(15_000 / 100 + 100);

    final ManualScheduler scheduler = new ManualScheduler();
    final ScriptedCalls calls = new ScriptedCalls();
    final List<String> told = new ArrayList<>();
    boolean listenerThrows;

    final OwnershipListener listener = new OwnershipListener() {
        @Override
        public void becameOwner(Tenure tenure) {
            told.add("owner " + tenure.start() + " " + tenure.fence());
            throwIfAsked();
        }

        @Override
        public void renewed(Tenure tenure) {
            told.add("renewed " + tenure.fence());
            throwIfAsked();
        }

        @Override
        public void stoppedOwning(StopReason reason) {
            told.add("stopped " + reason);
        }
    };

    /** The holder's floors this keeper shares: a test may raise one as another keeper of the key would have. */
    final FenceFloors floors = new FenceFloors();
    final LeaseKeeper keeper = keeper(calls, scheduler, Clock.systemUTC(), listener, bound -> 0, floors);
    final KeptLeaseHandle lease = new KeptLeaseHandle(keeper, () -> { });

    /**
     * A keeper of this harness's key and claimant on {@code scheduler}, telling {@code listener} at
     * once, whose wall clock is the scheduler's too: a test that runs many seconds of the keeper's
     * time in a few of its own must not let the real clock move under it.
     */
    static LeaseKeeper keeper(ScriptedCalls calls, ManualScheduler scheduler, OwnershipListener listener, Jitter jitter) {
        return keeper(calls, scheduler, scheduler.wallClock(), listener, jitter, new FenceFloors());
    }

    /** A keeper with candidacy, strategy and brakes {@code options}, asking {@code candidates}, on the scheduler's clocks. */
    static LeaseKeeper keeper(ScriptedCalls calls, ManualScheduler scheduler, OwnershipListener listener,
            KeepOptions options, CandidateCalls candidates, Executor listenerThread) {
        return new LeaseKeeper(new KeeperRules(KEY, SELF, TTL, bound -> 0, options), calls, candidates, scheduler,
                scheduler.wallClock(), scheduler, listenerThread, listener,
                new HolderTelemetry(OpenTelemetry.noop(), Map::of, () -> null), new FenceFloors());
    }

    private static LeaseKeeper keeper(ScriptedCalls calls, ManualScheduler scheduler, Clock wall,
            OwnershipListener listener, Jitter jitter, FenceFloors floors) {
        return new LeaseKeeper(new KeeperRules(KEY, SELF, TTL, jitter), calls, CandidateCalls.NOBODY, scheduler, wall,
                scheduler, Runnable::run, listener, new HolderTelemetry(OpenTelemetry.noop(), Map::of, () -> null), floors);
    }

    private void throwIfAsked() {
        if (listenerThrows) {
            throw new IllegalStateException("a bug in the user's listener");
        }
    }

    /** Answers the oldest call, which must be {@code operation}, and runs what is due. */
    void answer(String operation, Object answer) {
        calls.next(operation).answer().complete(answer);
        scheduler.runDue();
    }

    /** A lease of this process: holder {@code me}, incarnation {@code run-1}, tenure {@code tenure}. */
    static LeaseView mine(long revision, long tenure) {
        Instant now = Instant.now();
        return new LeaseView(KEY, ME, Optional.of(RUN), new Fence(revision), Optional.of(new Fence(tenure)), now,
                now.plusSeconds(15), TTL);
    }

    /** A lease of another holder, whose expiry is {@code left} from now on the wall clock. */
    static LeaseView others(String holder, long revision, Duration left) {
        Instant now = Instant.now();
        return new LeaseView(KEY, new HolderId(holder), Optional.empty(), new Fence(revision),
                Optional.of(new Fence(revision)), now, now.plus(left), TTL);
    }

    static Answers.Acquire granted(long revision) {
        return new Answers.Acquire.Granted(mine(revision, revision));
    }

    static Answers.Renew renewed(long revision, long tenure) {
        return new Answers.Renew.Renewed(mine(revision, tenure));
    }

    /** Campaigns, is granted {@code granted}, and confirms it with a renew answered {@code renewed}; the renew's send time. */
    long becomeOwner(long granted, long renewed) {
        keeper.start();
        scheduler.runDue();
        answer("acquire", granted(granted));
        long renewSentAt = scheduler.nanoTime();
        answer("renew", renewed(renewed, granted));
        return renewSentAt;
    }

    /**
     * A change event of the key at {@code sequence}: {@code expired}, or a write of dagnats
     * ({@code acquired}, {@code renewed}, {@code released}, {@code revoked}) by {@code claimant}.
     */
    static Optional<LeaseChange> change(String event, long sequence, Claimant claimant) {
        Map<String, String> headers = new HashMap<>();
        headers.put("Nats-Sequence", Long.toString(sequence));
        if (event.equals("expired")) {
            headers.put("Nats-Marker-Reason", "MaxAge");
        } else {
            headers.put(LeaseHeaders.EVENT, event);
            headers.put(LeaseHeaders.HOLDER, claimant.holder().value());
            claimant.incarnation().ifPresent(incarnation -> headers.put(LeaseHeaders.INCARNATION, incarnation.value()));
        }
        return LeaseChange.read(LeaseSubjects.changed(KEY), headers::get, Instant.EPOCH);
    }

    /** A change by this process for the kinds it writes, by {@code other} for an acquire. */
    static Optional<LeaseChange> change(String event, long sequence) {
        return change(event, sequence, event.equals("acquired") ? Claimant.of(new HolderId("other")) : SELF);
    }
}
