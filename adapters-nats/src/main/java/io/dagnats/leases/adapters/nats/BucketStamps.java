package io.dagnats.leases.adapters.nats;

import io.nats.client.JetStreamManagement;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.api.StreamInfo;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What a look records in the bucket's own metadata so that instances which never saw what this
 * one saw judge the bucket alike: a replacement's grace end (ADR-026 rule 6) and the bucket's
 * creation time (ADR-035). Best effort ({@link MetadataRecords}); used by {@link LeaseBucket}'s
 * looks, one at a time.
 */
final class BucketStamps {

    private static final System.Logger LOG = System.getLogger(LogNames.BUCKET);

    private final MetadataRecords metadata;
    private final BucketHistory history;

    BucketStamps(MetadataRecords metadata, BucketHistory history) {
        this.metadata = Objects.requireNonNull(metadata, "metadata");
        this.history = Objects.requireNonNull(history, "history");
    }

    /**
     * Records this instance's grace end in the metadata of the bucket just judged when it lacks one
     * ({@link BucketHistory#graceToRecord}), so that instances which never saw the old bucket honour
     * it from their next look. A metadata edit is not a new bucket ({@link BucketIdentity}). Best
     * effort ({@link MetadataRecords}): a failed update is tried again at the next look.
     *
     * @return whether this look needed an update (tried or not): the creation stamp then waits
     */
    boolean recordGrace(JetStreamManagement management, StreamInfo info) {
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
    void recordCreation(JetStreamManagement management, StreamInfo info, BucketStatus judged) {
        StreamConfiguration configuration = info.getConfiguration();
        if (!(judged instanceof BucketStatus.Ready ready) || !ready.identity().needsCreationStamp(configuration.getMetadata())) {
            return;
        }
        metadata.record(management, configuration, BucketIdentity.CREATED_METADATA, ready.identity().created().toString(),
                "its creation time");
    }
}
