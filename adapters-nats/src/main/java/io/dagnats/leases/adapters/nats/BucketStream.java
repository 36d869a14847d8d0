package io.dagnats.leases.adapters.nats;

import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.api.KeyValueConfiguration;
import io.nats.client.api.Republish;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.api.StreamInfo;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The stream behind the {@code leases} KV bucket: found, or created the way a KV
 * create makes it plus a first sequence of dagnats' choosing. Whether it can
 * serve leases is {@link LeaseBucket}'s judgement, not this class's.
 */
final class BucketStream {

    private BucketStream() {
    }

    /** The stream's info, or {@code null} when there is no such stream. */
    static StreamInfo find(JetStreamManagement management) throws IOException, JetStreamApiException {
        try {
            return management.getStreamInfo(Subjects.STREAM);
        } catch (JetStreamApiException missing) {
            if (missing.getApiErrorCode() == JetStreamApiError.STREAM_NOT_FOUND) {
                return null;
            }
            throw missing;
        }
    }

    /**
     * Creates the bucket; one another instance created a moment earlier counts as created.
     *
     * @param firstSequence where its sequences, and so its fences, start
     * @param grantsFrom    when the bucket it replaces can have no owner left, recorded for every instance to honour
     * @param mode          the identity mode it serves, recorded so that no replica of another mode serves it
     */
    static void create(JetStreamManagement management, int replicas, Duration markerTtl, long firstSequence,
            Optional<Instant> grantsFrom, IdentityMode mode) throws IOException, JetStreamApiException {
        Map<String, String> metadata = new HashMap<>();
        metadata.put(BucketIdentity.FENCES_METADATA, Long.toString(firstSequence));
        metadata.put(IdentityMode.METADATA, mode.recorded());
        grantsFrom.ifPresent(instant -> metadata.put(BucketIdentity.GRANTS_FROM_METADATA, instant.toString()));
        KeyValueConfiguration bucket = KeyValueConfiguration.builder()
                .name(Subjects.BUCKET)
                .description("dagnats leases: one key per lease, freed by the server's per-message TTL")
                .maxHistoryPerKey(1)
                .replicas(replicas)
                .limitMarker(markerTtl)
                .metadata(metadata)
                .republish(Republish.builder()
                        .source(Subjects.KEY_WILDCARD)
                        .destination(Subjects.CHANGED_WILDCARD)
                        .build())
                .build();
        // The KV API cannot choose a first sequence: the same stream a KV create makes, plus that.
        StreamConfiguration stream = StreamConfiguration.builder(bucket.getBackingConfig())
                .firstSequence(firstSequence)
                .build();
        try {
            management.addStream(stream);
        } catch (JetStreamApiException raced) {
            // Another dagnats instance may have created it a moment ago; the caller re-reads.
            if (find(management) == null) {
                throw raced;
            }
        }
    }

    /**
     * Sets one dagnats key of the bucket's metadata, keeping every other dagnats key and leaving the
     * server's own ({@code _nats.*}) to the server.
     */
    static void recordMetadata(JetStreamManagement management, StreamConfiguration configuration, String key,
            String value) throws IOException, JetStreamApiException {
        Map<String, String> metadata = new HashMap<>();
        if (configuration.getMetadata() != null) {
            configuration.getMetadata().forEach((name, given) -> {
                if (!name.startsWith("_nats.")) {
                    metadata.put(name, given);
                }
            });
        }
        metadata.put(key, value);
        management.updateStream(StreamConfiguration.builder(configuration).metadata(metadata).build());
    }
}
