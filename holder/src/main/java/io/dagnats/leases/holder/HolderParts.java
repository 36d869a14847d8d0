package io.dagnats.leases.holder;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.holder.internal.Daemons;
import io.dagnats.leases.holder.internal.HealthWatch;
import io.dagnats.leases.holder.internal.HolderTelemetry;
import io.dagnats.leases.holder.internal.HolderThreads;
import io.dagnats.leases.holder.internal.KeyChanges;
import io.dagnats.leases.holder.internal.candidacy.CandidateDesk;
import io.dagnats.leases.holder.internal.follow.Followings;
import io.dagnats.leases.holder.internal.forward.ForwardInbox;
import io.dagnats.leases.holder.internal.keeper.KeptKeys;
import io.dagnats.leases.holder.internal.shards.ShardHolder;
import io.dagnats.leases.holder.internal.shards.ShardSets;
import io.nats.client.Connection;
import io.opentelemetry.api.OpenTelemetry;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What one {@link LeaseHolder} is made of: its internal parts, made in the order they need each other,
 * opened, and closed in the order a close must keep. Kept apart from the holder so that the holder reads
 * as its public API; the parts are classes of the internal packages.
 */
final class HolderParts {

    final LeaseClient client;
    /** Hears every call's outcome; behind {@link LeaseHolder#health()} and the stuck and recovered log lines. */
    final HealthWatch health;
    final KeptKeys kept;
    /** The shard sets made by {@link LeaseHolder#shards}, left first on close. */
    final ShardSets shardSets;
    /** The keys followed by {@link LeaseHolder#follow}, stopped on close after the shard sets. */
    final Followings followings;
    /** The thread that campaigns and renews, and the one listeners are told on; stopped on close. */
    private final HolderThreads threads;
    /** Serves forwards to the keys this holder owns; empty when no forward handler was given. */
    private final Optional<ForwardInbox> inbox;
    /** Change events of the kept keys: one subscription per key, each waking its lease. */
    private final KeyChanges changes;
    /** This holder's candidacy on the wire (ADR-042); closed after the kept keys, which hand over through it. */
    private final CandidateDesk desk;

    /**
     * @param self      the holder id and this holder's own incarnation
     * @param scheduler the single thread that campaigns and renews; null for a daemon of its own
     */
    HolderParts(Connection connection, Claimant self, Duration requestTimeout, MonotonicClock clock,
            Optional<ForwardHandler> forwardHandler, ScheduledExecutorService scheduler, OpenTelemetry openTelemetry) {
        HolderTelemetry telemetry = new HolderTelemetry(openTelemetry, this::owners, connection::getConnectedUrl);
        this.health = new HealthWatch(self.holder(), connection::getStatus, requestTimeout, clock);
        this.client = new LeaseClient(connection, requestTimeout, telemetry, health);
        this.threads = new HolderThreads(self.holder(), scheduler);
        this.changes = new KeyChanges(connection);
        this.desk = new CandidateDesk(connection, self, clock);
        this.kept = new KeptKeys(self, client, clock, threads.scheduler(), threads.listeners(), changes, telemetry,
                health, desk);
        this.shardSets = new ShardSets(new ShardHolder(self.holder(), client, kept::keep, kept.floors()), self, connection,
                clock);
        this.followings = new Followings(self, connection, client, threads.scheduler(), threads.listeners(), clock,
                kept.floors());
        this.inbox = forwardHandler.map(handler -> new ForwardInbox(connection, self, handler, telemetry,
                kept::ownership, Daemons.named("dagnats-forward-" + self.holder())));
    }

    /** Opens the change events' dispatcher and the inbox: from here on dagnats may route requests here. */
    void start() {
        changes.open();
        inbox.ifPresent(ForwardInbox::start);
    }

    /** What the owner gauge reads; the keys are made after the telemetry that reads them. */
    private Map<LeaseKey, Boolean> owners() {
        return kept.owners();
    }

    /** Hands over or releases every kept lease, stops serving forwards; the connection stays open. Once only. */
    void close() {
        inbox.ifPresent(ForwardInbox::stopReceiving);
        shardSets.closeAll();
        followings.closeAll();
        kept.closeAll();
        desk.close();
        changes.close();
        threads.stop(); // what the closes told the listeners still reaches them
        inbox.ifPresent(ForwardInbox::stopHandlers);
    }
}
