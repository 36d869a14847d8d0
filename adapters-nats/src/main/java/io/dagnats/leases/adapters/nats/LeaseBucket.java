package io.dagnats.leases.adapters.nats;

import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.api.ClusterInfo;
import io.nats.client.api.ServerInfo;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.api.StreamInfo;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import io.dagnats.leases.domain.MonotonicClock;
import java.util.Objects;
import java.util.Optional;

/**
 * Finds or creates the {@code leases} KV bucket and decides whether it can
 * serve leases: the one place that does ({@link #status()}). Runs at start and
 * again every few seconds, and at once when a request finds the bucket gone or
 * changed, so a bucket changed, deleted or recreated under a running service
 * is judged again; never on a request's path.
 *
 * <p>A bucket it creates starts its sequence above every fence an earlier
 * bucket can have handed out, so fences never repeat across a recreation; and
 * a bucket that replaced one grants no free key until the old one's owners
 * can no longer believe they own (ADR-026, {@link BucketHistory}).
 */
public final class LeaseBucket {

    private static final int JETSTREAM_NOT_ENABLED = 10076;
    private static final int JETSTREAM_NOT_ENABLED_FOR_ACCOUNT = 10039;

    /**
     * @param replicas     copies of the bucket (1 on one server, 3 in a cluster)
     * @param markerTtl    how long expiry markers and release tombstones stay readable
     */
    public record Settings(int replicas, Duration markerTtl) {
        public Settings {
            if (replicas < 1 || replicas > 5) {
                throw new IllegalArgumentException("replicas must be from 1 to 5");
            }
            if (markerTtl.toSeconds() < 1 || markerTtl.toMillis() % 1000 != 0) {
                throw new IllegalArgumentException("the marker TTL must be whole seconds, at least 1");
            }
        }
    }

    private final Connection connection;
    private final Settings settings;
    private final Clock clock;
    private final IdentityMode mode;
    private final MetadataRecords metadata;
    private final FenceSkip skip = new FenceSkip();
    /** The server's clock as the last look's stream info read it. */
    private final ServerClockWatch serverClock;
    /** The status served, and what requests found of the bucket since the last look. */
    private final ServedBucket served;

    /** Only provision() touches it, one call at a time. */
    private final BucketHistory history = new BucketHistory();
    /** What a look records in the bucket's metadata; only provision() touches it. */
    private final BucketStamps stamps;
    /** Only ever set: this mode-off instance saw the bucket recorded for identity mode, and never creates it again. */
    private volatile boolean sawIdentityModeBucket;
    /** This look found the stream missing (set by tryProvision, read by provision). */
    private boolean lookFoundNoStream;

    public LeaseBucket(Connection connection, Settings settings, Clock clock) {
        this(connection, settings, clock, MonotonicClock.SYSTEM);
    }

    /** @param monotonic what the age of a reading of the server's clock is measured on */
    public LeaseBucket(Connection connection, Settings settings, Clock clock, MonotonicClock monotonic) {
        this(connection, settings, clock, monotonic, IdentityMode.OFF, new PublishDenials());
    }

    /**
     * @param monotonic what the age of a reading of the server's clock is measured on
     * @param mode      the identity mode this instance serves: a bucket it creates records it, and a
     *                  bucket that records another is refused (ADR-036, amended)
     * @param denials   the subjects the server refused the connection's user, fed by its error listener
     */
    public LeaseBucket(Connection connection, Settings settings, Clock clock, MonotonicClock monotonic,
            IdentityMode mode, PublishDenials denials) {
        this.connection = Objects.requireNonNull(connection, "connection");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.serverClock = new ServerClockWatch(Objects.requireNonNull(monotonic, "monotonic"));
        this.served = new ServedBucket(monotonic);
        this.mode = Objects.requireNonNull(mode, "mode");
        this.metadata = new MetadataRecords(denials);
        this.stamps = new BucketStamps(metadata, history);
    }

    public BucketStatus status() {
        return served.status();
    }

    /** What requests tell the bucket: the sequences they saw, and a bucket found gone or gone back. */
    ServedBucket served() {
        return served;
    }

    public Settings settings() {
        return settings;
    }

    /** The earliest the store server's clock can read now (see {@link ServerClockWatch#serverTimeAtLeast()}). */
    Optional<Instant> serverTimeAtLeast() {
        return serverClock.serverTimeAtLeast();
    }

    /** The version the connected server announced. */
    public String serverVersion() {
        ServerInfo info = connection.getServerInfo();
        return info == null ? "unknown" : info.getVersion();
    }

    /** What to run when a request finds the bucket gone or changed: a {@link #provision()} soon, off its thread. */
    public void recheckWith(Runnable recheck) {
        served.recheckWith(recheck);
    }

    /** Tries once to find or create the bucket and judges it; the answer is also kept as {@link #status()}. */
    public synchronized BucketStatus provision() {
        served.takeRollback().ifPresent(proven -> history.rolledBack(proven.identity(), proven.evidence()));
        BucketStatus judged = look();
        return !skip.due() ? judged : skip.perform(connection, metadata, clock,
                served.highestConfirmed(), this::look, judged);
    }

    private BucketStatus look() {
        lookFoundNoStream = false;
        BucketStatus tried = tryProvision();
        BucketStatus judged = afterLook(tried, served.status(), lookFoundNoStream);
        served.set(judged, !(tried instanceof BucketStatus.Pending) || lookFoundNoStream);
        return judged;
    }

    /** A request proved the bucket's stream went back: its revisions skip above the old ones at the next look. */
    String wentBack(RollbackProof proof) {
        if (skip.prove(proof, clock.instant())) {
            served.recheck();
        }
        return proof.evidence();
    }

    /** What serves after a look that judged {@code judged} while {@code current} served. */
    static BucketStatus afterLook(BucketStatus judged, BucketStatus current, boolean lookFoundNoStream) {
        if (judged instanceof BucketStatus.Pending && current instanceof BucketStatus.Ready && !lookFoundNoStream) {
            // JetStream did not answer this look (a leader election, say): nothing shows the bucket
            // changed, and requests meet the same outage on their own. Only a request that finds
            // the bucket gone or changed (lost) stops the serving; the next look that answers decides.
            // A look that found the stream missing did show it: the bucket served is gone, whether or
            // not the one created since could be read back.
            return current;
        }
        return judged;
    }

    private BucketStatus tryProvision() {
        Optional<String> unsupported = ServerVersion.cannotServeLeases(connection.getServerInfo());
        if (unsupported.isPresent()) {
            return new BucketStatus.Unsupported(unsupported.get());
        }
        try {
            JetStreamManagement management = connection.jetStreamManagement();
            StreamInfo existing = serverClock.timedInfo(management);
            if (existing == null) {
                lookFoundNoStream = true;
                if (mode == IdentityMode.OFF && sawIdentityModeBucket) {
                    return BucketStatus.Unsupported.forThisReplica(IdentityMode.NOT_RECREATED_OFF);
                }
                create(management);
                existing = serverClock.timedInfo(management);
                if (existing == null) {
                    return new BucketStatus.Pending("the bucket " + Subjects.BUCKET + " was created but is not found yet");
                }
            }
            BucketStatus judged = judge(existing);
            // One metadata update per look: each starts from this look's configuration.
            if (!stamps.recordGrace(management, existing)) {
                stamps.recordCreation(management, existing, judged);
            }
            return judged;
        } catch (JetStreamApiException refused) {
            if (refused.getApiErrorCode() == JETSTREAM_NOT_ENABLED
                    || refused.getApiErrorCode() == JETSTREAM_NOT_ENABLED_FOR_ACCOUNT) {
                return new BucketStatus.Unsupported("JetStream is not enabled for this account");
            }
            return new BucketStatus.Pending("JetStream refused the bucket: " + refused.getMessage());
        } catch (IOException | RuntimeException noAnswer) {
            return new BucketStatus.Pending("JetStream did not answer: " + noAnswer.getMessage());
        }
    }

    /** The first sequence of a bucket this instance creates now (see {@link BucketHistory}). */
    long firstSequenceForNewBucket() {
        return history.firstSequenceForNewBucket(clock.instant(), served.unconfirmedHighest());
    }

    private void create(JetStreamManagement management) throws IOException, JetStreamApiException {
        long first = firstSequenceForNewBucket();
        // It replaces a bucket whose owners may act until their deadlines: recorded, so that an
        // instance started later, which never saw the old bucket, grants nothing before then either.
        Optional<Instant> grantsFrom = history.knewABucket()
                ? Optional.of(ReplacementGrace.graceEnd(clock.instant()))
                : Optional.empty();
        BucketStream.create(management, settings.replicas(), settings.markerTtl(), first, grantsFrom, mode);
    }

    private BucketStatus judge(StreamInfo info) {
        ClusterInfo cluster = info.getClusterInfo();
        if (cluster != null && (cluster.getLeader() == null || cluster.getLeader().isBlank())) {
            // A stream without a leader is described by the meta leader, without its state: not a look
            // at the bucket's sequences (an empty state would read as sequences gone back).
            return new BucketStatus.Pending("the bucket " + Subjects.BUCKET + " has no stream leader");
        }
        StreamConfiguration configuration = info.getConfiguration();
        Optional<String> problem = BucketRules.problem(configuration, settings.replicas());
        if (problem.isPresent()) {
            return new BucketStatus.Unsupported(problem.get());
        }
        BucketIdentity identity = BucketIdentity.of(info.getCreateTime().toInstant(),
                configuration.getFirstSequence(), configuration.getMetadata());
        long lastSequence = info.getStreamState().getLastSequence();
        BucketHistory.Verdict verdict = history.look(identity, lastSequence, served.takeUnconfirmed());
        if (verdict.refusal().isPresent()) {
            return new BucketStatus.Unsupported(verdict.refusal().get());
        }
        // After the history's look, so that this instance still knows the bucket (and gives a bucket
        // that replaces it its grace, ADR-026) though it does not serve it.
        Optional<String> otherMode = mode.refusal(configuration.getMetadata());
        if (otherMode.isPresent() && mode == IdentityMode.OFF
                && IdentityMode.ACCOUNTS.refusal(configuration.getMetadata()).isEmpty()) {
            sawIdentityModeBucket = true;
        }
        if (otherMode.isPresent()) {
            // unavailable, not unsupported: a replica of the bucket's own mode in the queue group may serve the call.
            return BucketStatus.Unsupported.forThisReplica(otherMode.get());
        }
        served.confirm(identity, lastSequence);
        return new BucketStatus.Ready(BucketRules.describe(configuration, identity), identity, verdict.grantsFrom(),
                configuration.getAllowDirect());
    }
}
