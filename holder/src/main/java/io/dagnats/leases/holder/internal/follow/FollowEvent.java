package io.dagnats.leases.holder.internal.follow;

import io.dagnats.leases.holder.Following;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseChange;
import java.util.Optional;

/** What can happen to a {@link Following}: what {@link FollowRules} takes, one at a time. */
sealed interface FollowEvent {

    /** Read the key: once, after its change events are subscribed to. */
    record Start() implements FollowEvent {
    }

    /** A change event of the key. */
    record Heard(LeaseChange change) implements FollowEvent {
    }

    /** Events may have been missed: {@code why} (a reconnect, messages dropped by a slow listener). */
    record Gap(String why) implements FollowEvent {
    }

    /** Read {@code call} was answered. */
    record Read(long call, Answers.Owner answer) implements FollowEvent {
    }

    /**
     * Read {@code call} got no answer, or an error.
     *
     * @param finalError the sentence of an error that retrying will not cure, to log; empty otherwise
     */
    record ReadFailed(long call, Optional<String> finalError) implements FollowEvent {
    }

    /** The timer {@code timer} of {@link FollowState.Known} or {@link FollowState.Pausing}. */
    record Due(long timer) implements FollowEvent {
    }

    /** Stop following. */
    record Close() implements FollowEvent {
    }
}
