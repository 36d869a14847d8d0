package io.dagnats.leases.bootstrap;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import io.dagnats.leases.adapters.nats.DeadAttachments;
import io.dagnats.leases.adapters.nats.LeaseApi;
import io.dagnats.leases.adapters.nats.LeaseBucket;
import io.dagnats.leases.adapters.nats.NatsLeaseListing;
import io.dagnats.leases.adapters.nats.NatsLeaseStore;
import io.dagnats.leases.adapters.nats.NatsOwnerInbox;
import io.dagnats.leases.adapters.nats.NatsSuccessorCheck;
import io.dagnats.leases.adapters.nats.PublishDenials;
import io.dagnats.leases.application.AcquireLease;
import io.dagnats.leases.application.AttachedKeys;
import io.dagnats.leases.application.ForwardToOwner;
import io.dagnats.leases.application.HandOverLease;
import io.dagnats.leases.application.LeaseListing;
import io.dagnats.leases.application.LeaseStore;
import io.dagnats.leases.application.LeaseTelemetry;
import io.dagnats.leases.application.OwnerInbox;
import io.dagnats.leases.application.ReadLease;
import io.dagnats.leases.application.ReleaseLease;
import io.dagnats.leases.application.RenewLease;
import io.dagnats.leases.application.RevokeLease;
import io.dagnats.leases.application.SuccessorCheck;
import io.dagnats.leases.application.SharedReads;
import io.dagnats.leases.domain.MonotonicClock;
import io.nats.client.Connection;
import io.nats.client.ConnectionListener;
import io.nats.client.Consumer;
import io.nats.client.ErrorListener;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.util.function.LongFunction;

/**
 * The NATS side: the connection, the bucket, the store on it, and the micro
 * service in front of the use cases. The connection opens when first asked
 * for, never in {@link #configure()}.
 */
final class NatsModule extends AbstractModule {

    private static final System.Logger LOG = System.getLogger(NatsModule.class.getName());

    private final Settings settings;

    NatsModule(Settings settings) {
        this.settings = settings;
    }

    /** What the server refused this connection's user: a part of dagnats that may lack a permission asks here. */
    @Provides
    @Singleton
    PublishDenials denials() {
        return new PublishDenials();
    }

    @Provides
    @Singleton
    Connection connection(PublishDenials denials) throws IOException, InterruptedException, GeneralSecurityException {
        OneLineErrors lines = new OneLineErrors(denials);
        Options.Builder options = NatsOptions.authenticated(
                        settings.connection().natsUrl(), settings.connection(), settings.tls())
                .connectionName("dagnats-leases")
                .maxReconnects(-1)
                .reconnectWait(Duration.ofMillis(500))
                .connectionTimeout(Duration.ofSeconds(5))
                // A forward must tell "nobody listens" from "nobody answered in time".
                .reportNoResponders()
                // No reconnect buffer (jnats buffers 8 MB by default): a request made while
                // disconnected fails at once (answered unavailable) instead of being sent after the
                // reconnect, when its caller has long been told it timed out. A buffered acquire
                // could otherwise land later, for example in a bucket that replaced the old one
                // during its grace period (ADR-026). 0 disables it (jnats Options.Builder).
                .reconnectBufferSize(0)
                .connectionListener(lines)
                .errorListener(lines);
        return Nats.connect(options.build());
    }

    /**
     * Connection changes and jnats' errors as one warning line each, without stack traces, and an
     * outage as a few lines ({@link OutageLines}). A permission violation that a part of dagnats
     * explains in its own line (and stops causing) is left to that line.
     */
    private static final class OneLineErrors implements ErrorListener, ConnectionListener {
        private final PublishDenials denials;
        private OutageLines.Link link = new OutageLines.Up();

        OneLineErrors(PublishDenials denials) {
            this.denials = denials;
        }

        @Override
        public void connectionEvent(Connection connection, ConnectionListener.Events event) {
            switch (event) {
                case DISCONNECTED -> told(now -> OutageLines.lost(link, now), System.Logger.Level.WARNING);
                case RECONNECTED -> told(now -> OutageLines.back(link, now, connection.getConnectedUrl()),
                        System.Logger.Level.INFO);
                case CLOSED -> LOG.log(System.Logger.Level.INFO, "NATS connection closed");
                default -> {
                    // connected, discovered servers, resubscribed: nothing an operator must act on
                }
            }
        }

        @Override
        public void errorOccurred(Connection connection, String error) {
            if (!denials.read(error)) {
                LOG.log(System.Logger.Level.WARNING, "NATS server error: " + error);
            }
        }

        @Override
        public void exceptionOccurred(Connection connection, Exception exception) {
            told(now -> OutageLines.problem(link, now, OutageLines.words(exception)),
                    System.Logger.Level.WARNING);
        }

        /** jnats calls the listeners from more than one thread. */
        private synchronized void told(LongFunction<OutageLines.Next> event, System.Logger.Level level) {
            OutageLines.Next next = event.apply(System.nanoTime());
            link = next.link();
            next.line().ifPresent(line -> LOG.log(level, line));
        }

        @Override
        public void slowConsumerDetected(Connection connection, Consumer consumer) {
            LOG.log(System.Logger.Level.WARNING, "NATS slow consumer: dagnats is not keeping up with requests");
        }
    }

    @Provides
    @Singleton
    LeaseBucket bucket(Connection connection, Clock clock, MonotonicClock monotonic, PublishDenials denials) {
        return new LeaseBucket(connection, settings.bucket(), clock, monotonic, settings.identity().identity().mode(),
                denials);
    }

    @Provides
    @Singleton
    LeaseStore store(Connection connection, LeaseBucket bucket, LeaseTelemetry telemetry, Clock clock,
            DeadAttachments dead) {
        // Concurrent reads of one key share a leader read sent after each of them asked (ADR-032).
        return telemetry.observe(new SharedReads(
                new NatsLeaseStore(connection, bucket, settings.service().jetStreamTimeout(), clock, dead)));
    }

    /** Attached keys a read judged free, told to the freed events (ADR-043). */
    @Provides
    @Singleton
    DeadAttachments deadAttachments() {
        return new DeadAttachments();
    }

    @Provides
    @Singleton
    LeaseListing listing(Connection connection, LeaseBucket bucket, LeaseStore store) {
        // Keys attached to a member lease are listed by the liveness rule: one leader read per member and page.
        return new NatsLeaseListing(connection, bucket, settings.service().jetStreamTimeout(), store::read);
    }

    @Provides
    @Singleton
    LeaseApi api(Connection connection, LeaseBucket bucket, ReadLease owner, AcquireLease acquire,
            RenewLease renew, ReleaseLease release, ForwardToOwner forward, LeaseListing listing,
            RevokeLease revoke, HandOverLease handover, LeaseTelemetry telemetry, AttachedKeys attached,
            DeadAttachments dead) {
        return new LeaseApi(connection, bucket, owner, acquire, renew, release, forward, listing, revoke, handover,
                telemetry, settings.identity().identity(), DagnatsVersion.current().version(), attached, dead);
    }

    @Provides
    @Singleton
    OwnerInbox ownerInbox(Connection connection, LeaseTelemetry telemetry) {
        return telemetry.observe(new NatsOwnerInbox(connection, telemetry));
    }

    @Provides
    @Singleton
    SuccessorCheck successorCheck(Connection connection, LeaseTelemetry telemetry) {
        return new NatsSuccessorCheck(connection, telemetry);
    }
}
