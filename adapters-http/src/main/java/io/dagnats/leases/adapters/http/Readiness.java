package io.dagnats.leases.adapters.http;

import java.util.Objects;

/**
 * Whether the service can take lease requests now, and why, as {@code /readyz}
 * answers it: 200 for {@link Ready}, 503 for {@link NotReady}, the reason in the body.
 */
public sealed interface Readiness {

    /** One sentence for the probe's body. */
    String reason();

    /** Requests are answered: leases are served, or every call answers {@code unsupported} for the reason given. */
    record Ready(String reason) implements Readiness {
        public Ready {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** Requests would fail or not be taken: starting, disconnected from NATS, the bucket not judged yet, stopping. */
    record NotReady(String reason) implements Readiness {
        public NotReady {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
