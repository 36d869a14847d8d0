package io.dagnats.leases.bootstrap;

import io.dagnats.leases.adapters.http.Readiness;
import io.dagnats.leases.adapters.http.ReadinessSource;
import io.dagnats.leases.adapters.nats.BucketStatus;
import io.dagnats.leases.adapters.nats.LeaseBucket;
import io.nats.client.Connection;
import java.util.Locale;

/**
 * What {@code /readyz} answers, from the service's own state: starting until it
 * serves, then its NATS connection and the bucket's verdict as the service holds
 * them (the one the lease calls are answered under), then stopping. Ready when
 * connected and the verdict is known, also when it is {@code unsupported}: every
 * call is then answered, with that reason, and another instance would answer the
 * same.
 */
final class ServiceReadiness implements ReadinessSource {

    private volatile ReadinessSource phase;

    ServiceReadiness(String natsUrl) {
        phase = () -> new Readiness.NotReady("starting: connecting to NATS at " + natsUrl);
    }

    /** Serving: readiness follows the connection and the bucket from now on. */
    void serving(Connection connection, LeaseBucket bucket) {
        phase = () -> of(connection.getStatus(), bucket.status());
    }

    /** Stopping: no new requests should be sent here while the ones in flight are answered. */
    void stopping() {
        phase = () -> new Readiness.NotReady("stopping: answering the requests in flight, then disconnecting");
    }

    @Override
    public Readiness now() {
        return phase.now();
    }

    /** The rule: connected, and a verdict on the bucket (supported or not) is known. */
    static Readiness of(Connection.Status connection, BucketStatus bucket) {
        if (connection != Connection.Status.CONNECTED) {
            return new Readiness.NotReady("not connected to NATS (" + connection.name().toLowerCase(Locale.ROOT)
                    + "); lease calls cannot reach the service");
        }
        if (bucket instanceof BucketStatus.Pending) {
            return new Readiness.NotReady(bucket.summary());
        }
        return new Readiness.Ready(bucket.summary());
    }
}
