package io.dagnats.leases.holder.internal.follow;

import io.dagnats.leases.holder.Following;
import io.dagnats.leases.holder.KeyOwner;
import io.dagnats.leases.protocol.LeaseChange;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Where a {@link Following} stands. A read or timer is named by an id: an answer or wake-up that
 * names another is of a phase already left, and changes nothing.
 */
sealed interface FollowState {

    /** Not started yet. */
    record Idle() implements FollowState {
    }

    /**
     * What the follower knows of the key, from a read and the events placed after it.
     *
     * @param owner     who holds the key
     * @param last      the revision of the key's last message known (a write, tombstone or marker),
     *                  by which the next event is placed; empty when a read found the key free,
     *                  which does not say at which revision
     * @param expiresBy for a held key, the monotonic instant by which its lease has surely expired
     *                  unless renewed: its TTL (and a little) after the follower heard of its last write
     * @param handedOver the owner was learnt from the handed-over event that began its tenure (ADR-042)
     */
    record Knowledge(KeyOwner owner, OptionalLong last, OptionalLong expiresBy, boolean handedOver) {
        public Knowledge {
            Objects.requireNonNull(owner, "owner");
            Objects.requireNonNull(last, "last");
            Objects.requireNonNull(expiresBy, "expiresBy");
        }

        /** Learnt from a read, or from any event but a handover. */
        public Knowledge(KeyOwner owner, OptionalLong last, OptionalLong expiresBy) {
            this(owner, last, expiresBy, false);
        }
    }

    /** Settled on {@code knowledge}; {@code check} names the timer that reads the key again. */
    record Known(Knowledge knowledge, long check) implements FollowState {
        public Known {
            Objects.requireNonNull(knowledge, "knowledge");
        }
    }

    /**
     * A read in flight. Whatever was heard before it was sent, it will see; what is heard since,
     * {@code heard}, may come before or after it and is placed by its answer.
     *
     * @param before   what was known when it was sent, if anything
     * @param failures reads failed in a row before this one
     */
    record Reading(long call, Optional<Knowledge> before, List<LeaseChange> heard, int failures) implements FollowState {
        public Reading {
            Objects.requireNonNull(before, "before");
            heard = List.copyOf(heard);
        }
    }

    /**
     * A read failed; {@code retry} names the timer of the next. Meanwhile an event that follows
     * what was known is still placed (an expiry marker needs no dagnats), any other waits for the read.
     */
    record Pausing(long retry, Optional<Knowledge> before, int failures) implements FollowState {
        public Pausing {
            Objects.requireNonNull(before, "before");
        }
    }

    /** Nothing runs any more. */
    record Closed() implements FollowState {
    }
}
