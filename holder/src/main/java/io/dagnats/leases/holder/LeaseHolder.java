package io.dagnats.leases.holder;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.holder.internal.Daemons;
import io.dagnats.leases.holder.internal.HolderThreads;
import io.dagnats.leases.holder.internal.HealthWatch;
import io.dagnats.leases.holder.internal.HolderTelemetry;
import io.dagnats.leases.holder.internal.KeyChanges;
import io.dagnats.leases.holder.internal.RandomIds;
import io.dagnats.leases.holder.internal.candidacy.CandidateDesk;
import io.dagnats.leases.holder.internal.follow.Followings;
import io.dagnats.leases.holder.internal.forward.ForwardInbox;
import io.dagnats.leases.holder.internal.keeper.KeptKeys;
import io.dagnats.leases.holder.internal.shards.ShardHolder;
import io.dagnats.leases.holder.internal.shards.ShardSets;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.nats.client.Connection;
import io.opentelemetry.api.OpenTelemetry;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * This process as a lease holder: one holder id (unique per process), the keys
 * it keeps, and, when given a {@link ForwardHandler}, its forward inbox
 * ({@link LeaseSubjects#inboxes}). Uses a NATS connection you own; closing the holder hands
 * over or releases its leases but leaves the connection open.
 *
 * <pre>{@code
 * LeaseHolder holder = LeaseHolder.builder(connection).holderPrefix("notify").build();
 * KeptLease leader = holder.keep("notify-leader", Duration.ofSeconds(15), listener);
 * if (leader.isOwner()) { store.write(record, leader.fence().orElseThrow()); }
 * }</pre>
 *
 * <p>Its own job is the order of start and close; the parts are classes of the internal packages.
 */
public final class LeaseHolder implements AutoCloseable {

    /** The holder id and this holder's own random incarnation: whose leases are this process's, as a fact. */
    private final Claimant self;
    private final LeaseClient client;
    /** The thread that campaigns and renews, and the one listeners are told on; stopped on close. */
    private final HolderThreads threads;
    private final KeptKeys kept;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Serves forwards to the keys this holder owns; empty when no forward handler was given. */
    private final Optional<ForwardInbox> inbox;
    /** Change events of the kept keys: one subscription per key, each waking its lease. */
    private final KeyChanges changes;
    /** The shard sets made by {@link #shards}, left first on close. */
    private final ShardSets shardSets;
    /** The keys followed by {@link #follow}, stopped on close after the shard sets. */
    private final Followings followings;
    /** Hears every call's outcome; behind {@link #health()} and the stuck and recovered log lines. */
    private final HealthWatch health;
    /** This holder's candidacy on the wire (ADR-042); closed after the kept keys, which hand over through it. */
    private final CandidateDesk desk;

    private LeaseHolder(Builder builder) {
        Connection connection = builder.connection;
        HolderId id = builder.holderId != null ? builder.holderId : uniqueId(builder.holderPrefix);
        this.self = Claimant.of(id, new Incarnation(RandomIds.hex(12)));
        HolderTelemetry telemetry = new HolderTelemetry(builder.openTelemetry, this::owners, connection::getConnectedUrl);
        this.health = new HealthWatch(id, connection::getStatus, builder.requestTimeout, builder.clock);
        this.client = new LeaseClient(connection, builder.requestTimeout, telemetry, health);
        this.threads = new HolderThreads(id, builder.scheduler);
        this.changes = new KeyChanges(connection);
        this.desk = new CandidateDesk(connection, self, builder.clock);
        this.kept = new KeptKeys(self, client, builder.clock, threads.scheduler(), threads.listeners(), changes, telemetry,
                health, desk);
        this.shardSets = new ShardSets(new ShardHolder(id, client, kept::keep, kept.floors()), self, connection, builder.clock);
        this.followings = new Followings(self, connection, client, threads.scheduler(), threads.listeners(), builder.clock,
                kept.floors());
        this.inbox = Optional.ofNullable(builder.forwardHandler).map(handler -> new ForwardInbox(connection, self,
                handler, telemetry, kept::ownership, Daemons.named("dagnats-forward-" + id)));
    }

    /** Opens the change events' dispatcher and the inbox: from here on dagnats may route requests here. */
    private void start() {
        changes.open();
        inbox.ifPresent(ForwardInbox::start);
    }

    public static Builder builder(Connection connection) {
        return new Builder(connection);
    }

    /** A holder id that names one process: {@code prefix-<12 random hex digits>}. */
    public static HolderId uniqueId(String prefix) {
        return new HolderId(prefix + "-" + RandomIds.hex(6));
    }

    public HolderId id() {
        return self.holder();
    }

    /** This holder's own random incarnation, sent with its calls: another process under its id is another holder (ADR-034). */
    public Incarnation incarnation() {
        return self.incarnation().orElseThrow();
    }

    /** Whether this holder reaches dagnats, as its calls show: see {@link HolderHealth}, and its log lines there. */
    public HolderHealth health() {
        return health.health();
    }

    /** Typed calls to every lease subject, as this holder's connection. */
    public LeaseClient client() {
        return client;
    }

    /** Starts keeping {@code key}: campaigning for it now, renewing it while held. */
    public KeptLease keep(String key, Duration ttl, OwnershipListener listener) {
        return kept.keep(key, ttl, listener);
    }

    /** As {@link #keep(String, Duration, OwnershipListener)}: a candidate with a strategy and brakes ({@link KeepOptions}). */
    public KeptLease keep(String key, Duration ttl, KeepOptions options, OwnershipListener listener) {
        return kept.keep(key, ttl, options, listener);
    }

    /**
     * Joins the shard set {@code setName}: its {@code shardCount} shards are spread over the
     * replicas that joined it, each owning ⌈M/N⌉ or ⌊M/N⌋ of them, and {@code listener} hears
     * which are this process's; a shard given to another replica is drained first, for at most
     * {@code ttl}. Close the set (or the holder) to leave. See {@link ShardSet}.
     *
     * @throws IllegalArgumentException for a name or count that makes no valid keys, or a name
     *                                  that collides with another set's keys
     */
    public ShardSet shards(String setName, int shardCount, Duration ttl, ShardListener listener) {
        return shards(setName, shardCount, ttl, ttl, listener);
    }

    /** As {@link #shards(String, int, Duration, ShardListener)}, with a drain bound of its own. */
    public ShardSet shards(String setName, int shardCount, Duration ttl, Duration drainBound, ShardListener listener) {
        return shards(setName, shardCount, ttl, drainBound, ShardSetOptions.defaults(), listener);
    }

    /**
     * As {@link #shards(String, int, Duration, Duration, ShardListener)}, with this member's capacity
     * and the set's movement budget (ADR-044): shares follow capacity, and a rebalance round moves at
     * most the budget. Shards are keys attached to the member lease: renewing it keeps them all.
     */
    public ShardSet shards(String setName, int shardCount, Duration ttl, Duration drainBound, ShardSetOptions options,
            ShardListener listener) {
        return shardSets.join(setName, shardCount, ttl, drainBound, options, listener);
    }

    /**
     * Follows who owns {@code key} without campaigning: {@code listener} hears the owner now, then each
     * change, on the listener thread ({@link Following}); a closed holder follows nothing (ISE).
     */
    public Following follow(LeaseKey key, OwnerListener listener) {
        return followings.follow(key, listener);
    }

    /** What the owner gauge reads; the keys are made after the telemetry that reads them. */
    private Map<LeaseKey, Boolean> owners() {
        return kept.owners();
    }

    /** Stops keeping {@code key} and releases it if held. */
    public void drop(String key) {
        kept.get(new LeaseKey(key)).ifPresent(KeptLease::close);
    }

    /** Hands over or releases every kept lease, stops serving forwards; the connection stays open. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        inbox.ifPresent(ForwardInbox::stopReceiving);
        shardSets.closeAll();
        followings.closeAll();
        kept.closeAll();
        desk.close();
        changes.close();
        threads.stop(); // what the closes told the listeners still reaches them
        inbox.ifPresent(ForwardInbox::stopHandlers);
    }

    /** How a holder is set up. Only the connection is required. */
    public static final class Builder {
        private final Connection connection;
        private String holderPrefix = "holder";
        private HolderId holderId;
        private Duration requestTimeout = Duration.ofSeconds(5);
        private MonotonicClock clock = MonotonicClock.SYSTEM;
        private ForwardHandler forwardHandler;
        private ScheduledExecutorService scheduler;
        private OpenTelemetry openTelemetry = OpenTelemetry.noop();

        private Builder(Connection connection) {
            this.connection = Objects.requireNonNull(connection, "connection");
        }

        /** The readable part of the holder id; a random suffix makes it unique per process. */
        public Builder holderPrefix(String prefix) {
            if (prefix == null || prefix.length() > 115) {
                throw new IllegalArgumentException("a holder prefix is 1 to 115 characters");
            }
            new HolderId(prefix);
            this.holderPrefix = prefix;
            return this;
        }

        /** An exact holder id. It must name this process alone: two processes with one id are one holder. */
        public Builder holderId(String exact) {
            this.holderId = new HolderId(exact);
            return this;
        }

        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /** For tests: the monotonic clock deadlines are measured on. */
        public Builder clock(MonotonicClock monotonicClock) {
            this.clock = Objects.requireNonNull(monotonicClock, "clock");
            return this;
        }

        /** Serve forwarded requests for the keys this holder owns. */
        public Builder forwardHandler(ForwardHandler handler) {
            this.forwardHandler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /** The thread that campaigns and renews, one task at a time; shut down on close. A daemon of its own by default. */
        public Builder scheduler(ScheduledExecutorService singleThreaded) {
            this.scheduler = Objects.requireNonNull(singleThreaded, "scheduler");
            return this;
        }

        /** Where traces and metrics go: a client span per call, a server span per forward served. No-op by default. */
        public Builder openTelemetry(OpenTelemetry telemetry) {
            this.openTelemetry = Objects.requireNonNull(telemetry, "openTelemetry");
            return this;
        }

        public LeaseHolder build() {
            LeaseHolder holder = new LeaseHolder(this);
            holder.start();
            return holder;
        }
    }
}
