package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.LeaseStore;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One incarnation of the {@code leases} stream: a deleted and recreated bucket
 * has another creation time, and usually another first sequence. Two identities
 * are equal when those two are; what the metadata says is not compared.
 *
 * @param created             the stream's creation time, as the server reports it
 * @param firstSequence       the sequence its first message got or will get (1 unless chosen)
 * @param fencesNeverRepeat   dagnats created it with a first sequence above every fence an earlier
 *                            bucket can have handed out (its metadata says so, ADR-026)
 * @param grantsFrom          the end of the grace period its metadata records: dagnats created it to
 *                            replace a bucket whose owners may act until then (ADR-026)
 */
public record BucketIdentity(Instant created, long firstSequence, boolean fencesNeverRepeat,
        Optional<Instant> grantsFrom) {

    /** The stream metadata key dagnats sets, to the first sequence it chose, on a bucket it creates. */
    static final String FENCES_METADATA = "dagnats.fences";

    /**
     * The stream metadata key dagnats sets, to an RFC 3339 instant, on a bucket it creates to
     * replace one it knew: no free key is granted before then.
     */
    static final String GRANTS_FROM_METADATA = "dagnats.grants-from";

    public BucketIdentity {
        Objects.requireNonNull(created, "created");
        Objects.requireNonNull(grantsFrom, "grantsFrom");
    }

    static BucketIdentity of(Instant created, long configuredFirstSequence, Map<String, String> metadata) {
        long first = Math.max(1, configuredFirstSequence);
        // Copying the metadata to another stream with another first sequence does not make it safe.
        boolean chosen = metadata != null && Long.toString(first).equals(metadata.get(FENCES_METADATA));
        return new BucketIdentity(created, first, chosen, grantsFrom(created, metadata));
    }

    /** An unreadable grace end is taken as the longest one, counted from the creation. */
    private static Optional<Instant> grantsFrom(Instant created, Map<String, String> metadata) {
        String recorded = metadata == null ? null : metadata.get(GRANTS_FROM_METADATA);
        if (recorded == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(recorded.strip()));
        } catch (DateTimeParseException unreadable) {
            return Optional.of(BucketHistory.graceEnd(created));
        }
    }

    /**
     * The same incarnation: the same creation time and first sequence. The metadata-derived fields
     * are not compared: an operator's metadata edit (or dagnats recording a grace end) does not
     * make a new bucket, which every instance would otherwise refuse as one starting at or below
     * the sequences confirmed in it.
     */
    @Override
    public boolean equals(Object other) {
        return other instanceof BucketIdentity that && created.equals(that.created) && firstSequence == that.firstSequence;
    }

    @Override
    public int hashCode() {
        return 31 * created.hashCode() + Long.hashCode(firstSequence);
    }

    LeaseStore.Identity forStore() {
        return new LeaseStore.Identity(created + "#" + firstSequence, fencesNeverRepeat);
    }
}
