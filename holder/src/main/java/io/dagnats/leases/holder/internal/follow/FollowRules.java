package io.dagnats.leases.holder.internal.follow;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.holder.KeyOwner;
import io.dagnats.leases.holder.internal.FenceFloors;
import io.dagnats.leases.holder.internal.keeper.KeeperContext;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The following of one key as one pure function: (state, memory, event, now) to the next state
 * and the effects to perform. Nothing here reads a clock or does I/O.
 *
 * <p>An event is believed only when it is placed: it follows the revision the follower last knew
 * of the key ({@link LeaseChange#previous}, the server's own count per key), or it follows nothing
 * and the key was known free (a marker or tombstone expires away silently). Any other event, a
 * reconnect, dropped messages and a start are a gap, closed by a read of {@code owner}: it sees
 * everything heard before it was sent; what is heard while it is in flight is placed by the
 * revision it answers, and when it answers "free" (which names no revision) by another read if
 * any of that was a write.
 */
final class FollowRules {

    /** The server frees an expired key 150 to 300 ms after its TTL (nats-server 2.15.1): read a little after. */
    static final long AFTER_EXPIRY_NANOS = Duration.ofMillis(500).toNanos();
    /** A key whose events have said nothing for this long is read again, in case every event was lost. */
    static final long QUIET_NANOS = Duration.ofSeconds(30).toNanos();
    /** A lease read again after it surely expired (a server late to expire it) is read again this soon. */
    static final long PAST_EXPIRY_NANOS = Duration.ofSeconds(1).toNanos();
    static final long FIRST_RETRY_NANOS = Duration.ofMillis(250).toNanos();
    static final long LAST_RETRY_NANOS = Duration.ofSeconds(5).toNanos();

    final LeaseKey key;
    private final FollowReports reports;

    /** Follows {@code key} for this process, {@code self} (empty: for no process that keeps keys). */
    FollowRules(LeaseKey key, Optional<Claimant> self) {
        this.key = Objects.requireNonNull(key, "key");
        this.reports = new FollowReports(key, self);
    }

    FollowRules(LeaseKey key) {
        this(key, Optional.empty());
    }

    FollowStep next(FollowState state, FollowStep.Memory memory, FollowEvent event, long now) {
        return next(state, memory, event, now, Optional.empty());
    }

    /** @param floor the highest fence this process confirmed for the key ({@link FenceFloors}), if any */
    FollowStep next(FollowState state, FollowStep.Memory memory, FollowEvent event, long now, Optional<Fence> floor) {
        FollowStep.Builder step = new FollowStep.Builder(memory, floor);
        if (state instanceof FollowState.Closed || event instanceof FollowEvent.Close) {
            return step.into(new FollowState.Closed());
        }
        if (state instanceof FollowState.Idle) {
            return event instanceof FollowEvent.Start ? read(step, Optional.empty(), 0) : step.into(state);
        }
        if (state instanceof FollowState.Known known) {
            return known(known, event, step, now);
        }
        if (state instanceof FollowState.Reading reading) {
            return reading(reading, event, step, now);
        }
        return pausing((FollowState.Pausing) state, event, step, now);
    }

    private FollowStep known(FollowState.Known known, FollowEvent event, FollowStep.Builder step, long now) {
        if (event instanceof FollowEvent.Heard heard) {
            Optional<FollowState.Knowledge> placed = place(known.knowledge(), heard.change(), now);
            if (placed.isEmpty()) {
                return read(step, Optional.of(known.knowledge()), 0);
            }
            return placed.get().equals(known.knowledge()) ? step.into(known) : settle(step, placed.get(), now);
        }
        if (event instanceof FollowEvent.Gap || event instanceof FollowEvent.Due due && due.timer() == known.check()) {
            return read(step, Optional.of(known.knowledge()), 0);
        }
        return step.into(known);
    }

    private FollowStep reading(FollowState.Reading reading, FollowEvent event, FollowStep.Builder step, long now) {
        if (event instanceof FollowEvent.Heard heard) {
            List<LeaseChange> meanwhile = new ArrayList<>(reading.heard());
            meanwhile.add(heard.change());
            return step.into(new FollowState.Reading(reading.call(), reading.before(), meanwhile, reading.failures()));
        }
        if (event instanceof FollowEvent.Gap) {
            // What was missed may be newer than what this read will see: a read sent after the gap.
            return read(step, reading.before(), reading.failures());
        }
        if (event instanceof FollowEvent.Read answered && answered.call() == reading.call()) {
            return answered(reading, answered.answer(), step, now);
        }
        if (event instanceof FollowEvent.ReadFailed failed && failed.call() == reading.call()) {
            Optional<FollowState.Knowledge> before = reading.before().map(known -> placeAll(known, reading.heard(), now));
            before.ifPresent(known -> reports.tell(step, known));
            if (failed.finalError().isPresent() && reading.failures() == 0) {
                step.then(new FollowEffect.Log(System.Logger.Level.WARNING, "following " + key
                        + ": cannot read its owner (" + failed.finalError().get() + "); trying again"));
            }
            int failures = reading.failures() + 1;
            long retry = step.id();
            step.then(new FollowEffect.Schedule(new FollowEvent.Due(retry), retryDelay(failures)));
            return step.into(new FollowState.Pausing(retry, before, failures));
        }
        return step.into(reading);
    }

    private FollowStep pausing(FollowState.Pausing pausing, FollowEvent event, FollowStep.Builder step, long now) {
        if (event instanceof FollowEvent.Due due && due.timer() == pausing.retry()) {
            return read(step, pausing.before(), pausing.failures());
        }
        if (event instanceof FollowEvent.Heard heard && pausing.before().isPresent()) {
            Optional<FollowState.Knowledge> placed = place(pausing.before().get(), heard.change(), now);
            if (placed.isPresent()) {
                reports.tell(step, placed.get());
                return step.into(new FollowState.Pausing(pausing.retry(), placed, pausing.failures()));
            }
        }
        return step.into(pausing);
    }

    private FollowStep answered(FollowState.Reading reading, Answers.Owner answer, FollowStep.Builder step, long now) {
        FollowState.Knowledge read;
        boolean readAgain;
        if (answer instanceof Answers.Owner.Held held) {
            LeaseView lease = held.lease();
            long revision = lease.revision().revision();
            // The same write as known before was made before the follower first heard of it.
            OptionalLong expiresBy = reading.before().filter(before -> before.last().equals(OptionalLong.of(revision)))
                    .map(FollowState.Knowledge::expiresBy)
                    .orElse(expiresBy(Optional.of(lease.ttl().duration()), now));
            FollowState.Knowledge known = new FollowState.Knowledge(new KeyOwner.Held(key, lease.holder(),
                    lease.incarnation(), KeeperContext.startOf(lease)), OptionalLong.of(revision), expiresBy);
            read = placeAll(known, reading.heard(), now);
            readAgain = reading.heard().stream().anyMatch(change -> change.sequence() > read.last().orElse(0));
        } else {
            // Free names no revision: a write heard meanwhile may be from before or after the read, and
            // only a read sent after it tells. Nor can an event heard later be placed after it: the
            // reply and the events come by different threads (and, clustered, different routes), so
            // a write the read outlived may still arrive. The follower knows no revision then, and
            // the next event of the key is read again rather than believed (see place).
            readAgain = reading.heard().stream().anyMatch(change -> !change.kind().endsLease());
            read = new FollowState.Knowledge(new KeyOwner.Free(key), OptionalLong.empty(), OptionalLong.empty());
        }
        reports.tell(step, read);
        return readAgain ? read(step, Optional.of(read), 0) : settle(step, read, now);
    }

    /**
     * {@code change} placed after {@code known}: the same when it is no newer, empty when it
     * cannot be placed (it follows another revision, or is a write that cannot follow).
     */
    Optional<FollowState.Knowledge> place(FollowState.Knowledge known, LeaseChange change, long now) {
        long revision = change.sequence();
        if (known.last().isPresent() && revision <= known.last().getAsLong()) {
            return Optional.of(known);
        }
        OptionalLong previous = change.previous();
        // A first write of a key follows a free known from an event of its own, never one only read.
        boolean follows = previous.isPresent() && known.last().isPresent() && (previous.equals(known.last())
                || previous.getAsLong() == 0 && known.owner() instanceof KeyOwner.Free);
        if (!follows) {
            return Optional.empty();
        }
        if (change.kind().endsLease()) {
            return Optional.of(new FollowState.Knowledge(new KeyOwner.Free(key), OptionalLong.of(revision),
                    OptionalLong.empty()));
        }
        if (change.holder().isEmpty()) {
            return Optional.empty();
        }
        OptionalLong expiresBy = expiresBy(change.ttl(), now);
        // A handover (ADR-042) begins the successor's tenure at its own revision, as an acquire does.
        if (change.kind() == LeaseChange.Kind.ACQUIRED || change.kind() == LeaseChange.Kind.HANDED_OVER) {
            return Optional.of(new FollowState.Knowledge(new KeyOwner.Held(key, change.holder().get(),
                    change.incarnation(), new Fence(revision)), OptionalLong.of(revision), expiresBy,
                    change.kind() == LeaseChange.Kind.HANDED_OVER));
        }
        // A renewal goes on with the tenure known; a renewal of anyone else's is an event missed.
        if (known.owner() instanceof KeyOwner.Held held && held.holder().equals(change.holder().get())
                && held.incarnation().equals(change.incarnation())) {
            return Optional.of(new FollowState.Knowledge(held, OptionalLong.of(revision), expiresBy));
        }
        return Optional.empty();
    }

    /** {@code changes} placed after {@code known} in order, up to the first that cannot be. */
    private FollowState.Knowledge placeAll(FollowState.Knowledge known, List<LeaseChange> changes, long now) {
        FollowState.Knowledge placed = known;
        for (LeaseChange change : changes) {
            Optional<FollowState.Knowledge> next = place(placed, change, now);
            if (next.isEmpty()) {
                break;
            }
            placed = next.get();
        }
        return placed;
    }

    private FollowStep settle(FollowStep.Builder step, FollowState.Knowledge known, long now) {
        reports.tell(step, known);
        long check = step.id();
        step.then(new FollowEffect.Schedule(new FollowEvent.Due(check), checkDelay(known, now)));
        return step.into(new FollowState.Known(known, check));
    }

    private FollowStep read(FollowStep.Builder step, Optional<FollowState.Knowledge> before, int failures) {
        long call = step.id();
        return step.then(new FollowEffect.SendRead(call))
                .into(new FollowState.Reading(call, before, List.of(), failures));
    }

    /** The next read of a settled key: just after its lease surely expired, and within {@link #QUIET_NANOS}. */
    static long checkDelay(FollowState.Knowledge known, long now) {
        if (known.expiresBy().isEmpty()) {
            return QUIET_NANOS;
        }
        long untilExpired = known.expiresBy().getAsLong() - now;
        return untilExpired <= 0 ? PAST_EXPIRY_NANOS : Math.min(QUIET_NANOS, untilExpired);
    }

    static long retryDelay(int failures) {
        return Math.min(LAST_RETRY_NANOS, FIRST_RETRY_NANOS << Math.min(failures - 1, 10));
    }

    private static OptionalLong expiresBy(Optional<Duration> ttl, long now) {
        return ttl.map(duration -> OptionalLong.of(now + duration.toNanos() + AFTER_EXPIRY_NANOS))
                .orElse(OptionalLong.empty());
    }
}
