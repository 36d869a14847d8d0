package io.dagnats.leases.adapters.nats;

import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.KeyValueManagement;
import io.nats.client.api.KeyValueConfiguration;
import io.nats.client.api.Republish;
import io.nats.client.api.ServerInfo;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.api.StreamInfo;
import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Finds or creates the {@code leases} KV bucket and decides whether the server
 * can serve leases. Runs at start and again every few seconds (so a bucket
 * changed under a running service is judged again); never on a request's path.
 */
public final class LeaseBucket {

    private static final int STREAM_NOT_FOUND = 10059;
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
    private volatile BucketStatus status = new BucketStatus.Pending("not provisioned yet");

    public LeaseBucket(Connection connection, Settings settings) {
        this.connection = Objects.requireNonNull(connection, "connection");
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    public BucketStatus status() {
        return status;
    }

    public Settings settings() {
        return settings;
    }

    /** The version the connected server announced. */
    public String serverVersion() {
        ServerInfo info = connection.getServerInfo();
        return info == null ? "unknown" : info.getVersion();
    }

    /** Tries once to find or create the bucket; the answer is also kept as {@link #status()}. */
    public BucketStatus provision() {
        status = tryProvision();
        return status;
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
            StreamInfo existing = findStream(management);
            if (existing == null) {
                create();
                existing = management.getStreamInfo(Subjects.STREAM);
                return judge(existing.getConfiguration(), "created");
            }
            return judge(existing.getConfiguration(), "reused");
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

    private static StreamInfo findStream(JetStreamManagement management) throws IOException, JetStreamApiException {
        try {
            return management.getStreamInfo(Subjects.STREAM);
        } catch (JetStreamApiException missing) {
            if (missing.getApiErrorCode() == STREAM_NOT_FOUND) {
                return null;
            }
            throw missing;
        }
    }

    private void create() throws IOException, JetStreamApiException {
        KeyValueManagement kv = connection.keyValueManagement();
        KeyValueConfiguration configuration = KeyValueConfiguration.builder()
                .name(Subjects.BUCKET)
                .description("dagnats leases: one key per lease, freed by the server's per-message TTL")
                .maxHistoryPerKey(1)
                .replicas(settings.replicas())
                .limitMarker(settings.markerTtl())
                .republish(Republish.builder()
                        .source(Subjects.KEY_WILDCARD)
                        .destination(Subjects.CHANGED_WILDCARD)
                        .build())
                .build();
        try {
            kv.create(configuration);
        } catch (JetStreamApiException raced) {
            // Another dagnats instance may have created it a moment ago; the caller re-reads.
            if (findStream(connection.jetStreamManagement()) == null) {
                throw raced;
            }
        }
    }

    private static BucketStatus judge(StreamConfiguration configuration, String how) {
        Optional<String> problem = BucketRules.problem(configuration);
        if (problem.isPresent()) {
            return new BucketStatus.Unsupported(problem.get());
        }
        return new BucketStatus.Ready("bucket " + Subjects.BUCKET + " " + how
                + ", replicas " + configuration.getReplicas()
                + ", history 1, per-message TTL on"
                + ", expiry markers " + configuration.getSubjectDeleteMarkerTtl().toSeconds() + "s"
                + ", change events on " + Subjects.CHANGED_WILDCARD);
    }
}
