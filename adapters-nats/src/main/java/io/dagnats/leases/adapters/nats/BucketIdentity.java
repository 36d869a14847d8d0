package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.LeaseStore;
import java.time.Instant;
import java.util.Map;

/**
 * One incarnation of the {@code leases} stream: a deleted and recreated bucket
 * has another creation time, and usually another first sequence.
 *
 * @param created             the stream's creation time, as the server reports it
 * @param firstSequence       the sequence its first message got or will get (1 unless chosen)
 * @param fencesNeverRepeat   dagnats created it with a first sequence above every fence an earlier
 *                            bucket can have handed out (its metadata says so, ADR-026)
 */
public record BucketIdentity(Instant created, long firstSequence, boolean fencesNeverRepeat) {

    /** The stream metadata key dagnats sets, to the first sequence it chose, on a bucket it creates. */
    static final String FENCES_METADATA = "dagnats.fences";

    static BucketIdentity of(Instant created, long configuredFirstSequence, Map<String, String> metadata) {
        long first = Math.max(1, configuredFirstSequence);
        // Copying the metadata to another stream with another first sequence does not make it safe.
        boolean chosen = metadata != null && Long.toString(first).equals(metadata.get(FENCES_METADATA));
        return new BucketIdentity(created, first, chosen);
    }

    LeaseStore.Identity forStore() {
        return new LeaseStore.Identity(created + "#" + firstSequence, fencesNeverRepeat);
    }
}
