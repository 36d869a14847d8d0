package io.dagnats.leases.holder;

import java.time.Duration;
import java.util.Objects;

/**
 * Whether a {@link LeaseHolder} reaches dagnats, as its calls show: {@link LeaseHolder#health()}.
 *
 * <p>A holder is {@link Unhealthy} once its calls have gone unanswered for longer than its
 * shortest kept TTL (its request timeout when it keeps no key): by then no lease it holds
 * can still be renewed, and none it waits for can be acquired. Any answer from dagnats,
 * an error answer too, makes it {@link Healthy} again. Shorter gaps (one lost reply, a
 * quick reconnect) leave it healthy. A holder that makes no calls learns nothing, and
 * stays as its last call left it.
 *
 * <p>The holder also says so in its log, under the logger
 * {@code io.dagnats.leases.holder.LeaseHolder}: one WARNING line when it turns unhealthy
 * ("holder &lt;id&gt; cannot reach dagnats: ..." or "... cannot reach NATS: ..."), one more
 * only if the cause then changes, and one INFO line when dagnats answers again
 * ("holder &lt;id&gt; reaches dagnats again after N ms unanswered"). No stack traces.
 */
public sealed interface HolderHealth {

    /** Whether dagnats answers this holder's calls. */
    default boolean isHealthy() {
        return this instanceof Healthy;
    }

    /** Dagnats answered the holder's last call, or the calls have gone unanswered for less than the threshold. */
    record Healthy() implements HolderHealth {
    }

    /**
     * The holder's calls have gone unanswered for longer than the threshold.
     *
     * @param cause       which of the two it cannot reach, as its last unanswered call found it
     * @param unansweredFor how long since the first call of this run went unanswered, as of the query
     * @param lastError   what the last unanswered call failed with, in one line
     */
    record Unhealthy(Cause cause, Duration unansweredFor, String lastError) implements HolderHealth {
        public Unhealthy {
            Objects.requireNonNull(cause, "cause");
            Objects.requireNonNull(unansweredFor, "unansweredFor");
            Objects.requireNonNull(lastError, "lastError");
        }
    }

    /** Why calls go unanswered. */
    enum Cause {
        /** The holder's NATS connection is not connected (reconnecting, or closed). */
        NATS_DISCONNECTED,
        /** NATS is connected, but no dagnats answers: none is running, or none that answers in time. */
        DAGNATS_NOT_ANSWERING
    }
}
