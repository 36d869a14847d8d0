package io.dagnats.leases.holder.internal.follow;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.holder.Following;
import io.dagnats.leases.holder.KeyOwner;
import io.dagnats.leases.holder.LeaseClient;
import io.dagnats.leases.holder.OwnerListener;
import io.dagnats.leases.holder.internal.CallFailures;
import io.dagnats.leases.holder.internal.FenceFloors;
import io.dagnats.leases.holder.internal.KeyChanges;
import io.dagnats.leases.holder.internal.Scheduler;
import io.dagnats.leases.holder.internal.Step;
import io.dagnats.leases.holder.internal.StepRunner;
import io.dagnats.leases.protocol.LeaseChange;
import io.nats.client.Connection;
import io.nats.client.ConnectionListener;
import io.nats.client.Subscription;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The {@link Following} a holder hands out: the runner of {@link FollowRules} for one key, fed by
 * the key's change events and reconnects, telling an {@link OwnerListener} on the listener thread.
 */
public final class KeyFollowing implements Following {

    private static final System.Logger LOG = System.getLogger("io.dagnats.leases.holder.Following");

    private final FollowRules rules;
    private final Connection connection;
    private final LeaseClient client;
    private final KeyChanges changes;
    private final Executor listenerThread;
    private final OwnerListener listener;
    private final Consumer<KeyFollowing> onClose;
    /** The holder's highest confirmed fence per key: no owner at or below it is reported ({@link FollowReports}). */
    private final FenceFloors floors;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ConnectionListener reconnects = (ignored, event) -> {
        if (event == ConnectionListener.Events.RECONNECTED || event == ConnectionListener.Events.RESUBSCRIBED) {
            submit(new FollowEvent.Gap("NATS reconnected"));
        }
    };
    private volatile KeyOwner current;
    private volatile Subscription subscription;

    /** Its state, memory and loop: the same runner as a keeper's. */
    private final StepRunner<FollowState, FollowStep.Memory, FollowEffect, FollowEvent> runner;
    /** Messages the shared dispatcher had dropped when this following last looked; set before subscribing, then read on the dispatcher thread. */
    private long dropped;

    /**
     * @param changes opened already, and shared with the holder's other followings
     * @param self    the holder's claimant, whose own record at its floor is the write it confirmed
     */
    public KeyFollowing(LeaseKey key, Connection connection, LeaseClient client, KeyChanges changes, Scheduler scheduler,
            Executor listenerThread, OwnerListener listener, MonotonicClock clock, Consumer<KeyFollowing> onClose,
            Claimant self, FenceFloors floors) {
        this.rules = new FollowRules(key, Optional.of(self));
        this.floors = floors;
        this.connection = connection;
        this.client = client;
        this.changes = changes;
        this.listenerThread = listenerThread;
        this.listener = listener;
        this.onClose = onClose;
        this.runner = new StepRunner<>(scheduler, new FollowState.Idle(), FollowStep.Memory.FRESH,
                (state, memory, event) -> rules.next(state, memory, event, clock.nanoTime(), floors.floor(rules.key)),
                this::afterBug, this::perform, FollowState.Closed.class::isInstance);
    }

    /** Subscribes to the key's change events and to reconnects, then reads the key: in that order, so nothing falls between. */
    public void start() {
        dropped = changes.dropped();
        subscription = changes.subscribe(rules.key, this::heard);
        connection.addConnectionListener(reconnects);
        submit(new FollowEvent.Start());
    }

    @Override
    public LeaseKey key() {
        return rules.key;
    }

    @Override
    public Optional<KeyOwner> current() {
        return Optional.ofNullable(current);
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        submit(new FollowEvent.Close());
        connection.removeConnectionListener(reconnects);
        changes.unsubscribe(subscription);
        onClose.accept(this);
    }

    /**
     * A change event, on the subscriptions' dispatcher thread: checked for drops (of any key's
     * events, the dispatcher is shared), then handed to the scheduler.
     */
    private void heard(Optional<LeaseChange> change) {
        long droppedNow = changes.dropped();
        if (droppedNow != dropped) {
            dropped = droppedNow;
            submit(new FollowEvent.Gap("change events were dropped (a slow consumer)"));
        }
        change.ifPresent(known -> submit(new FollowEvent.Heard(known)));
    }

    private void submit(FollowEvent event) {
        runner.submit(event);
    }

    /** A bug in a rule is logged, and the event changes nothing: the following goes on as it was. */
    private Optional<Step<FollowState, FollowStep.Memory, FollowEffect>> afterBug(FollowState state,
            FollowStep.Memory memory, FollowEvent event, RuntimeException bug) {
        LOG.log(System.Logger.Level.ERROR, "following " + rules.key + ": no rule for " + event + " in " + state, bug);
        return Optional.empty();
    }

    private void perform(FollowEffect effect) {
        if (effect instanceof FollowEffect.SendRead send) {
            client.owner(rules.key).whenComplete((answer, failure) -> submit(failure == null
                    ? new FollowEvent.Read(send.call(), answer)
                    : new FollowEvent.ReadFailed(send.call(), CallFailures.finalError(failure))));
        } else if (effect instanceof FollowEffect.Schedule schedule) {
            runner.submitAfter(schedule.event(), schedule.delayNanos());
        } else if (effect instanceof FollowEffect.Report report && !closed.get()) {
            current = report.owner();
            tell(report.owner(), report.handedOver());
        } else if (effect instanceof FollowEffect.Log log) {
            LOG.log(log.level(), log.line());
        }
    }

    /** Tells the listener on its own thread; whatever it throws is logged and changes nothing. */
    private void tell(KeyOwner owner, boolean handedOver) {
        listenerThread.execute(() -> {
            if (closed.get()) {
                return;
            }
            try {
                if (handedOver && owner instanceof KeyOwner.Held successor) {
                    listener.handedOver(successor);
                } else {
                    listener.ownerChanged(owner);
                }
            } catch (RuntimeException | Error thrown) {
                LOG.log(System.Logger.Level.WARNING, "the owner listener of " + rules.key
                        + " threw; following goes on", thrown);
            }
        });
    }
}
