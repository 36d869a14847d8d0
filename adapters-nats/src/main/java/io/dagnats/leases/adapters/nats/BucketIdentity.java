package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.LeaseStore;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
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
 * @param copiedFrom          the creation time its metadata records when that is not its own: it was
 *                            created from a copy of another bucket's configuration, first sequence and
 *                            all, so its fences repeat that bucket's (ADR-035)
 */
public record BucketIdentity(Instant created, long firstSequence, boolean fencesNeverRepeat,
        Optional<Instant> grantsFrom, Optional<Instant> copiedFrom) {

    /** The stream metadata key dagnats sets, to the first sequence it chose, on a bucket it creates. */
    static final String FENCES_METADATA = "dagnats.fences";

    /**
     * The stream metadata key dagnats sets, to an RFC 3339 instant, on a bucket it creates to
     * replace one it knew: no free key is granted before then.
     */
    static final String GRANTS_FROM_METADATA = "dagnats.grants-from";

    /**
     * The stream metadata key dagnats sets, to the stream's own creation time as the server reports
     * it, on a bucket whose fences never repeat: a stream created from a copy of that configuration
     * carries a creation time that is not its own.
     */
    static final String CREATED_METADATA = "dagnats.created";

    public BucketIdentity {
        Objects.requireNonNull(created, "created");
        Objects.requireNonNull(grantsFrom, "grantsFrom");
        Objects.requireNonNull(copiedFrom, "copiedFrom");
    }

    static BucketIdentity of(Instant created, long configuredFirstSequence, Map<String, String> metadata) {
        long first = Math.max(1, configuredFirstSequence);
        // To the millisecond: a server that reports the time less precisely must not make a copy of the
        // bucket itself, and no copy is made within the millisecond its original was created.
        Optional<Instant> copiedFrom = recordedCreation(metadata)
                .filter(recorded -> !recorded.truncatedTo(ChronoUnit.MILLIS).equals(created.truncatedTo(ChronoUnit.MILLIS)));
        // Copying the metadata to another stream with another first sequence does not make it safe;
        // nor does copying it with the same one (a copy starts where the original's fences did).
        boolean chosen = metadata != null && Long.toString(first).equals(metadata.get(FENCES_METADATA))
                && copiedFrom.isEmpty();
        return new BucketIdentity(created, first, chosen, grantsFrom(created, metadata), copiedFrom);
    }

    /**
     * Whether dagnats should record this bucket's own creation time in its metadata: it claims fences
     * that never repeat and records none yet (made by dagnats a moment ago, or before the stamp
     * existed), so that a copy of its configuration can be told apart.
     */
    boolean needsCreationStamp(Map<String, String> metadata) {
        return fencesNeverRepeat && (metadata == null || !metadata.containsKey(CREATED_METADATA));
    }

    /** An unreadable recorded creation time is taken as another bucket's: never trusted as this one's. */
    private static Optional<Instant> recordedCreation(Map<String, String> metadata) {
        String recorded = metadata == null ? null : metadata.get(CREATED_METADATA);
        if (recorded == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(recorded.strip()));
        } catch (DateTimeParseException unreadable) {
            return Optional.of(Instant.EPOCH);
        }
    }

    /** The grace end recorded in {@code metadata}, if one is and it reads as an instant. */
    static Optional<Instant> recordedGrantsFrom(Map<String, String> metadata) {
        String recorded = metadata == null ? null : metadata.get(GRANTS_FROM_METADATA);
        try {
            return recorded == null ? Optional.empty() : Optional.of(Instant.parse(recorded.strip()));
        } catch (DateTimeParseException unreadable) {
            return Optional.empty();
        }
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
            return Optional.of(ReplacementGrace.graceEnd(created));
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
