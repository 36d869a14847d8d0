package io.dagnats.leases.holder;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.protocol.LeaseHeaders;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.Subscription;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * This process as a lease holder: one holder id (unique per process), the keys
 * it keeps, and, when given a {@link ForwardHandler}, its forward inbox
 * ({@link LeaseSubjects#inboxes}). Uses a NATS connection you own;
 * closing the holder releases its leases but leaves the connection open.
 *
 * <pre>{@code
 * LeaseHolder holder = LeaseHolder.builder(connection).holderPrefix("notify").build();
 * KeptLease leader = holder.keep("notify-leader", Duration.ofSeconds(15), listener);
 * if (leader.isOwner()) { store.write(record, leader.fence().orElseThrow()); }
 * }</pre>
 */
public final class LeaseHolder implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(LeaseHolder.class.getName());
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final AtomicInteger THREADS = new AtomicInteger();

    private final Connection connection;
    private final HolderId id;
    private final LeaseClient client;
    private final MonotonicClock clock;
    private final Scheduler scheduler;
    /** The executor behind {@link #scheduler}, shut down on close. */
    private final ScheduledExecutorService executor;
    private final ExecutorService handlers;
    private final ForwardHandler forwardHandler;
    private final Map<LeaseKey, KeptLease> kept = new ConcurrentHashMap<>();
    private final Map<LeaseKey, Subscription> subscriptions = new ConcurrentHashMap<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Dispatcher inbox;
    /** Change events of the kept keys: one subscription per key, each waking its lease. */
    private final Dispatcher changes;
    private final HolderTelemetry telemetry;

    private LeaseHolder(Builder builder) {
        this.connection = builder.connection;
        this.id = builder.holderId != null ? builder.holderId : uniqueId(builder.holderPrefix);
        this.telemetry = new HolderTelemetry(builder.openTelemetry, kept::values);
        this.client = new LeaseClient(connection, builder.requestTimeout, telemetry);
        this.clock = builder.clock;
        this.executor = builder.scheduler != null
                ? builder.scheduler
                : Executors.newSingleThreadScheduledExecutor(daemon("dagnats-holder-" + id));
        this.scheduler = Scheduler.of(executor);
        this.forwardHandler = builder.forwardHandler;
        this.handlers = forwardHandler == null ? null : Executors.newCachedThreadPool(daemon("dagnats-forward-" + id));
        this.changes = connection.createDispatcher();
        if (forwardHandler != null) {
            inbox = connection.createDispatcher(this::onForward);
            inbox.subscribe(LeaseSubjects.inboxes(id));
        } else {
            inbox = null;
        }
    }

    public static Builder builder(Connection connection) {
        return new Builder(connection);
    }

    /** A holder id that names one process: {@code prefix-<12 random hex digits>}. */
    public static HolderId uniqueId(String prefix) {
        byte[] suffix = new byte[6];
        RANDOM.nextBytes(suffix);
        return new HolderId(prefix + "-" + HexFormat.of().formatHex(suffix));
    }

    public HolderId id() {
        return id;
    }

    /** Typed calls to every lease subject, as this holder's connection. */
    public LeaseClient client() {
        return client;
    }

    /** Starts keeping {@code key}: campaigning for it now, renewing it while held. */
    public KeptLease keep(String key, Duration ttl, OwnershipListener listener) {
        LeaseKey leaseKey = new LeaseKey(key);
        LeaseTtl leaseTtl = new LeaseTtl(ttl.toMillis());
        Objects.requireNonNull(listener, "listener");
        KeptLease lease = kept.compute(leaseKey, (ignored, existing) -> {
            if (existing != null) {
                throw new IllegalStateException(key + " is already kept by this holder");
            }
            return new KeptLease(new LeaseKeeper(leaseKey, id, leaseTtl, client, clock, scheduler, listener, telemetry),
                    () -> forget(leaseKey));
        });
        LeaseKeeper keeper = lease.keeper();
        subscriptions.put(leaseKey, changes.subscribe(LeaseSubjects.changed(leaseKey), event -> keeper.keyChanged()));
        keeper.start();
        return lease;
    }

    /** Stops keeping {@code key} and releases it if held. */
    public void drop(String key) {
        KeptLease lease = kept.get(new LeaseKey(key));
        if (lease != null) {
            lease.close();
        }
    }

    /** A kept lease closed: no more change events for it, and the key may be kept again. */
    private void forget(LeaseKey key) {
        Subscription subscription = subscriptions.remove(key);
        if (subscription != null && changes.isActive()) {
            changes.unsubscribe(subscription);
        }
        kept.remove(key);
    }

    private void onForward(Message request) {
        String subject = request.getSubject();
        String keyToken = LeaseSubjects.inboxTail(id, subject);
        LeaseKey leaseKey = keyToken.indexOf('.') >= 0 ? null : safeKey(keyToken);
        KeptLease kept = leaseKey == null ? null : this.kept.get(leaseKey);
        Ownership lease = kept == null ? null : kept.keeper().ownership();
        Optional<Fence> presented =
                LeaseHeaders.parseFence(request.hasHeaders() ? request.getHeaders().getFirst(LeaseHeaders.FENCE) : null);
        Span span = telemetry.startServing(LeaseSubjects.INBOX_PREFIX + id.value(), keyToken,
                request.hasHeaders() ? request.getHeaders() : null);
        presented.ifPresent(fence -> span.setAttribute(HolderTelemetry.REVISION, fence.revision()));
        if (lease == null || lease.admit(presented).isEmpty()) {
            rejectStale(request, keyToken, span);
            return;
        }
        handlers.execute(() -> {
            // Judge again: time may have passed in the queue, and the deadline with it. From here until
            // served(), ending ownership interrupts this thread, and a close waits for it before releasing.
            ForwardRun run = new ForwardRun(Thread.currentThread());
            Optional<Tenure> admitted = lease.admit(presented, run);
            if (admitted.isEmpty()) {
                rejectStale(request, keyToken, span);
                return;
            }
            try (Scope ignored = span.makeCurrent()) {
                byte[] reply = forwardHandler.handle(admitted.get(),
                        request.getData() == null ? new byte[0] : request.getData());
                connection.publish(request.getReplyTo(), reply == null ? new byte[0] : reply);
                span.setAttribute(HolderTelemetry.OUTCOME, "served");
            } catch (Exception failed) {
                // No reply: the caller sees owner_timeout, which says "it may have been processed".
                LOG.log(System.Logger.Level.WARNING, "the forward handler failed for " + leaseKey, failed);
                span.setAttribute(HolderTelemetry.OUTCOME, "failed");
                span.setAttribute(HolderTelemetry.ERROR_TYPE, failed.getClass().getSimpleName());
            } finally {
                lease.served(run);
                span.end();
            }
        });
    }

    private static LeaseKey safeKey(String token) {
        try {
            return new LeaseKey(token);
        } catch (IllegalArgumentException notAKey) {
            return null;
        }
    }

    private void rejectStale(Message request, String key, Span span) {
        reject(request);
        telemetry.rejectedStale(key);
        span.setAttribute(HolderTelemetry.OUTCOME, "rejected_stale");
        span.end();
    }

    private void reject(Message request) {
        if (request.getReplyTo() == null) {
            return;
        }
        Headers headers = new Headers();
        headers.put(LeaseHeaders.REJECT, LeaseHeaders.REJECT_STALE);
        connection.publish(NatsMessage.builder().subject(request.getReplyTo()).headers(headers).data(new byte[0]).build());
    }

    /**
     * Releases every kept lease, stops serving forwards; the connection stays open.
     * Closing after the connection was closed releases nothing and does not throw;
     * closing twice does nothing the second time.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        closeDispatcher(inbox);
        for (KeptLease lease : List.copyOf(kept.values())) {
            lease.close();
        }
        kept.clear();
        closeDispatcher(changes);
        executor.shutdownNow();
        if (handlers != null) {
            handlers.shutdownNow();
        }
    }

    private void closeDispatcher(Dispatcher dispatcher) {
        if (dispatcher != null && connection.getStatus() != Connection.Status.CLOSED) {
            connection.closeDispatcher(dispatcher);
        }
    }

    private static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + THREADS.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
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

        /**
         * The thread that campaigns and renews; it must run one task at a time. The holder
         * shuts it down on close. By default a daemon thread of its own.
         */
        public Builder scheduler(ScheduledExecutorService singleThreaded) {
            this.scheduler = Objects.requireNonNull(singleThreaded, "scheduler");
            return this;
        }

        /**
         * Where this holder's traces and metrics go: client spans for its calls, a server
         * span (continuing dagnats' trace) for each forward it serves. No-op by default.
         */
        public Builder openTelemetry(OpenTelemetry telemetry) {
            this.openTelemetry = Objects.requireNonNull(telemetry, "openTelemetry");
            return this;
        }

        public LeaseHolder build() {
            return new LeaseHolder(this);
        }
    }
}
