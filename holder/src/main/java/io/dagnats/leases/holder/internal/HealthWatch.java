package io.dagnats.leases.holder.internal;

import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.holder.HolderHealth.Cause;
import io.dagnats.leases.holder.HolderHealth;
import io.nats.client.Connection;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Runs {@link Reachability} for one holder: classifies each unanswered call by the NATS
 * connection's status at that moment, keeps the state, and logs the lines it decides,
 * under the holder's logger. The threshold is the shortest TTL among the kept keys
 * (past it, no lease of this holder can still be renewed), or the request timeout
 * when none is kept.
 */
public final class HealthWatch implements CallOutcomes {

    private static final System.Logger LOG = System.getLogger("io.dagnats.leases.holder.LeaseHolder");

    private final HolderId holder;
    private final Supplier<Connection.Status> natsStatus;
    private final Duration requestTimeout;
    private final MonotonicClock clock;
    private final Map<LeaseKey, Duration> keptTtls = new ConcurrentHashMap<>();
    /** Guarded by this. */
    private Reachability state = Reachability.REACHABLE;

    /** @param natsStatus the holder's connection's {@link Connection#getStatus()} */
    public HealthWatch(HolderId holder, Supplier<Connection.Status> natsStatus, Duration requestTimeout, MonotonicClock clock) {
        this.holder = holder;
        this.natsStatus = natsStatus;
        this.requestTimeout = requestTimeout;
        this.clock = clock;
    }

    /** {@code key} is kept with {@code ttl} from now on: it may lower the threshold. */
    public void kept(LeaseKey key, Duration ttl) {
        keptTtls.put(key, ttl);
    }

    public void dropped(LeaseKey key) {
        keptTtls.remove(key);
    }

    @Override
    public synchronized void answered() {
        perform(Reachability.answered(state, clock.nanoTime()));
    }

    @Override
    public synchronized void unanswered(Throwable cause) {
        Connection.Status status = natsStatus.get();
        String error = describe(cause);
        Reachability.Step step = status == Connection.Status.CONNECTED
                ? Reachability.unanswered(state, Cause.DAGNATS_NOT_ANSWERING, error, clock.nanoTime(), threshold())
                : Reachability.unanswered(state, Cause.NATS_DISCONNECTED, "connection " + status + ", " + error,
                        clock.nanoTime(), threshold());
        perform(step);
    }

    public synchronized HolderHealth health() {
        return Reachability.health(state, clock.nanoTime(), threshold());
    }

    private void perform(Reachability.Step step) {
        state = step.next();
        if (step.line().isPresent()) {
            LOG.log(step.line().get().level(), "holder " + holder + " " + step.line().get().text());
        }
    }

    /** One line; jnats reports "no responders" as a CancellationException without a message. */
    static String describe(Throwable cause) {
        if (cause instanceof CancellationException && cause.getMessage() == null) {
            return "no responders (CancellationException)";
        }
        return cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
    }

    private Duration threshold() {
        return keptTtls.values().stream().min(Duration::compareTo).orElse(requestTimeout);
    }
}
