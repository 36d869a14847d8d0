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
import io.dagnats.leases.domain.ServerClockReading;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

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
 *
 * <p>Over 200 lines on purpose: each look (find or create the stream, judge its
 * settings and history, record a missing grace end) and the state it updates
 * (the verdict history, the sequence check, the current status) form the one
 * place that decides whether leases are served; the pure rules it applies live
 * apart ({@link BucketRules}, {@link BucketHistory}, {@link SequenceCheck},
 * {@link BucketStream}).
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

    private static final System.Logger LOG = System.getLogger(LeaseBucket.class.getName());

    private final Connection connection;
    private final Settings settings;
    private final Clock clock;
    private final MonotonicClock monotonic;
    private final IdentityMode mode;
    private final MetadataRecords metadata;
    private final FenceSkip skip = new FenceSkip();
    /** The server's clock as the last look's stream info read it ({@code ts}); null before any, or from a server without it. */
    private volatile ServerClockReading serverClock;
    private final AtomicReference<BucketStatus> status =
            new AtomicReference<>(new BucketStatus.Pending("not provisioned yet"));
    private volatile Runnable recheck = () -> { };
    /** Sequences requests saw since the last check: which bucket answered them is not yet confirmed. */
    private final AtomicLong unconfirmedHighest = new AtomicLong();

    /** Only provision() touches it, one call at a time. */
    private final BucketHistory history = new BucketHistory();
    /**
     * Whether this instance, with identity mode off, saw the bucket recorded for identity mode: it then
     * never creates the bucket again (a stray mode-off replica would turn the deployment's checks off).
     * Only ever set.
     */
    private volatile boolean sawIdentityModeBucket;
    /** The sequences confirmed in the bucket last judged ready; replaced when its identity changes. */
    private volatile SequenceCheck sequences;
    /** A request's proof that the bucket with this identity went back; provision() hands it to the history. */
    private volatile Rollback rollback;
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
        this.monotonic = Objects.requireNonNull(monotonic, "monotonic");
        this.mode = Objects.requireNonNull(mode, "mode");
        this.metadata = new MetadataRecords(denials);
    }

    /**
     * The earliest the store server's clock can read now, from the last look's stream info (its
     * {@code ts}, nats-server 2.10+), taken as of the answer's arrival so the round trip errs early;
     * empty before any look, for a server that sends no time, or when the last reading is older than
     * {@link ServerClockReading#LONGEST_TRUSTED}. Never this host's clock.
     */
    Optional<Instant> serverTimeAtLeast() {
        ServerClockReading reading = serverClock;
        return reading == null ? Optional.empty() : reading.serverTimeAtLeast(monotonic.nanoTime());
    }

    private StreamInfo timedInfo(JetStreamManagement management) throws IOException, JetStreamApiException {
        StreamInfo info = BucketStream.find(management);
        long answered = monotonic.nanoTime();
        if (info != null && info.getTimestamp() != null) {
            serverClock = new ServerClockReading(info.getTimestamp().toInstant(), answered);
        }
        return info;
    }

    public BucketStatus status() {
        return status.get();
    }

    public Settings settings() {
        return settings;
    }

    /** The version the connected server announced. */
    public String serverVersion() {
        ServerInfo info = connection.getServerInfo();
        return info == null ? "unknown" : info.getVersion();
    }

    /** What to run when a request finds the bucket gone or changed: a {@link #provision()} soon, off its thread. */
    public void recheckWith(Runnable recheck) {
        this.recheck = Objects.requireNonNull(recheck, "recheck");
    }

    /** Tries once to find or create the bucket and judges it; the answer is also kept as {@link #status()}. */
    public synchronized BucketStatus provision() {
        Rollback proven = rollback;
        if (proven != null) {
            history.rolledBack(proven.identity(), proven.evidence());
            rollback = null;
        }
        BucketStatus judged = look();
        return !skip.due() ? judged : skip.perform(connection, metadata, clock.instant(),
                sequences == null ? 0 : sequences.highest(), this::look, judged);
    }

    private BucketStatus look() {
        lookFoundNoStream = false;
        BucketStatus judged = afterLook(tryProvision(), status.get(), lookFoundNoStream);
        status.set(judged);
        return judged;
    }

    /** A request proved the bucket's stream went back: its revisions skip above the old ones at the next look. */
    String wentBack(RollbackProof proof) {
        if (skip.prove(proof, clock.instant())) {
            recheck.run();
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

    /** The sequences confirmed in the bucket judged ready with {@code identity}; empty once another was judged. */
    Optional<SequenceCheck> sequences(BucketIdentity identity) {
        SequenceCheck current = sequences;
        return current != null && current.identity().equals(identity) ? Optional.of(current) : Optional.empty();
    }

    /** A request saw {@code sequence}; counted for this bucket at the next look, if it is still the same bucket. */
    void saw(long sequence) {
        unconfirmedHighest.accumulateAndGet(sequence, Math::max);
    }

    /**
     * A request found the bucket it was sent to gone or not the one judged ready: no call is
     * served until it has been judged again. Logged once, as one line.
     */
    void lost(BucketStatus.Ready ready, String reason) {
        if (status.compareAndSet(ready, new BucketStatus.Pending("the bucket changed (" + reason + "); checking it again"))) {
            LOG.log(System.Logger.Level.WARNING, "dagnats: leases bucket changed under the service (" + reason
                    + "); answering unavailable until it is judged again");
            recheck.run();
        }
    }

    /**
     * A write into the bucket judged {@code ready} was acknowledged at or below a sequence already
     * confirmed in it: its sequences went back. Refused at once and for good, as two looks with the
     * last sequence gone back are (ADR-026 rule 5). Logged once, as one line.
     */
    void rolledBack(BucketStatus.Ready ready, String evidence) {
        rollback = new Rollback(ready.identity(), evidence);
        BucketStatus.Unsupported refused = new BucketStatus.Unsupported(BucketHistory.rolledBackRefusal(evidence));
        if (status.compareAndSet(ready, refused)) {
            LOG.log(System.Logger.Level.ERROR, "dagnats: " + refused.describe());
            recheck.run();
        }
    }

    private record Rollback(BucketIdentity identity, String evidence) {
    }

    private BucketStatus tryProvision() {
        ServerInfo info = connection.getServerInfo();
        ServerVersion version = ServerVersion.parse(info.getVersion());
        if (!version.isAtLeast(ServerVersion.PER_MESSAGE_TTL)) {
            return new BucketStatus.Unsupported("nats-server " + version
                    + " has no per-message TTL; leases need nats-server 2.11 or newer");
        }
        if (!info.isJetStreamAvailable()) {
            return new BucketStatus.Unsupported("JetStream is not enabled on nats-server " + version);
        }
        try {
            JetStreamManagement management = connection.jetStreamManagement();
            StreamInfo existing = timedInfo(management);
            if (existing == null) {
                lookFoundNoStream = true;
                if (mode == IdentityMode.OFF && sawIdentityModeBucket) {
                    return BucketStatus.Unsupported.forThisReplica(IdentityMode.NOT_RECREATED_OFF);
                }
                create(management);
                existing = timedInfo(management);
                if (existing == null) {
                    return new BucketStatus.Pending("the bucket " + Subjects.BUCKET + " was created but is not found yet");
                }
            }
            BucketStatus judged = judge(existing);
            // One metadata update per look: each starts from this look's configuration.
            if (!recordGrace(management, existing)) {
                recordCreation(management, existing, judged);
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
        return history.firstSequenceForNewBucket(clock.instant(), unconfirmedHighest.get());
    }

    private void create(JetStreamManagement management) throws IOException, JetStreamApiException {
        long first = firstSequenceForNewBucket();
        // It replaces a bucket whose owners may act until their deadlines: recorded, so that an
        // instance started later, which never saw the old bucket, grants nothing before then either.
        Optional<Instant> grantsFrom = history.knewABucket()
                ? Optional.of(BucketHistory.graceEnd(clock.instant()))
                : Optional.empty();
        BucketStream.create(management, settings, first, grantsFrom, mode);
    }

    /**
     * Records this instance's grace end in the metadata of the bucket just judged when it lacks one
     * ({@link BucketHistory#graceToRecord}), so that instances which never saw the old bucket honour
     * it from their next look. A metadata edit is not a new bucket ({@link BucketIdentity}). Best
     * effort ({@link MetadataRecords}): a failed update is tried again at the next look.
     *
     * @return whether this look needed an update (tried or not): the creation stamp then waits
     */
    private boolean recordGrace(JetStreamManagement management, StreamInfo info) {
        StreamConfiguration configuration = info.getConfiguration();
        BucketIdentity seen = BucketIdentity.of(info.getCreateTime().toInstant(), configuration.getFirstSequence(),
                configuration.getMetadata());
        Optional<Instant> end = history.graceToRecord(seen);
        if (end.isEmpty()) {
            return false;
        }
        if (metadata.record(management, configuration, BucketIdentity.GRANTS_FROM_METADATA, end.get().toString(),
                "the grace end " + end.get())) {
            LOG.log(System.Logger.Level.WARNING, "dagnats: the leases bucket replaced one this instance knew but"
                    + " recorded no grace end; recorded " + BucketIdentity.GRANTS_FROM_METADATA + ": " + end.get()
                    + ", so instances that never saw the old bucket grant nothing before then either");
        }
        return true;
    }

    /**
     * Records the bucket's own creation time in its metadata ({@link BucketIdentity#CREATED_METADATA})
     * when it serves with fences that never repeat and records none, so that a stream created from a
     * copy of its configuration reads as a copy at every instance's next look, including instances
     * that never saw this bucket (ADR-035). Best effort ({@link MetadataRecords}), tried again at the next look.
     */
    private void recordCreation(JetStreamManagement management, StreamInfo info, BucketStatus judged) {
        StreamConfiguration configuration = info.getConfiguration();
        if (!(judged instanceof BucketStatus.Ready ready) || !ready.identity().needsCreationStamp(configuration.getMetadata())) {
            return;
        }
        metadata.record(management, configuration, BucketIdentity.CREATED_METADATA, ready.identity().created().toString(),
                "its creation time");
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
        BucketHistory.Verdict verdict = history.look(identity, lastSequence, unconfirmedHighest.getAndSet(0));
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
        SequenceCheck current = sequences;
        if (current != null && current.identity().equals(identity)) {
            current.confirmed(lastSequence);
        } else {
            sequences = new SequenceCheck(identity, lastSequence);
        }
        return new BucketStatus.Ready(BucketRules.describe(configuration, identity), identity, verdict.grantsFrom(),
                configuration.getAllowDirect());
    }
}
