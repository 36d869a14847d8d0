package io.dagnats.leases.holder.internal.follow;

import io.dagnats.leases.holder.Following;
import io.dagnats.leases.holder.KeyOwner;

/** What {@link FollowRules} asks the {@link Following} to do, in order. */
sealed interface FollowEffect {

    /** Read the key through {@code owner}; the outcome comes back as an event naming {@code call}. */
    record SendRead(long call) implements FollowEffect {
    }

    /** Feed {@code event} back after {@code delayNanos} on the monotonic clock. */
    record Schedule(FollowEvent event, long delayNanos) implements FollowEffect {
    }

    /** Publish {@code owner} as the current one, then tell the listener. */
    record Report(KeyOwner owner, boolean handedOver) implements FollowEffect {
        Report(KeyOwner owner) {
            this(owner, false);
        }
    }

    /** One line for operators. */
    record Log(System.Logger.Level level, String line) implements FollowEffect {
    }
}
