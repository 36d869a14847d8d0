package io.dagnats.leases.adapters.nats;

import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.api.StreamInfo;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.function.Supplier;

/**
 * A grace end recorded in the stream metadata ({@code dagnats.grants-from}, ADR-026 rule 6) to hold
 * every put while a {@link FenceSkip} scans: pushed on by another {@link #HOLD} whenever it would
 * run out within {@link #BEFORE_HOLD_ENDS}, so that every instance, which honours a grace end from
 * its next look (2 s apart) and only ever a longer one, never stops withholding before the skip's
 * own grace end is recorded.
 */
final class GraceHold {

    /** How long a hold withholds puts: every instance's next look, a scan of a small bucket, and a look after it. */
    static final Duration HOLD = Duration.ofSeconds(15);
    /** A longer end must be recorded this long before the hold runs out, so every instance looks in between. */
    static final Duration BEFORE_HOLD_ENDS = Duration.ofSeconds(5);

    private final JetStreamManagement management;
    private final MetadataRecords metadata;
    private final StreamInfo info;
    private final Supplier<BucketStatus> look;
    private final Clock clock;
    private Instant until;

    GraceHold(JetStreamManagement management, MetadataRecords metadata, StreamInfo info,
            Supplier<BucketStatus> look, Clock clock, Instant until) {
        this.management = management;
        this.metadata = metadata;
        this.info = info;
        this.look = look;
        this.clock = clock;
        this.until = until;
    }

    /** Until when puts are held. */
    Instant until() {
        return until;
    }

    /** Pushes the hold on when it would run out within {@link #BEFORE_HOLD_ENDS}; false if that failed. */
    boolean keep() throws IOException, JetStreamApiException {
        Instant now = clock.instant();
        if (now.plus(BEFORE_HOLD_ENDS).isBefore(until)) {
            return true;
        }
        Instant longer = now.plus(HOLD).truncatedTo(ChronoUnit.MILLIS).plusMillis(1);
        if (record(management, metadata, info, longer, look) == null) {
            return false;
        }
        until = longer;
        return true;
    }

    /** Records {@code end} as the grace end and looks; the verdict if it serves that end, else null. */
    static BucketStatus record(JetStreamManagement management, MetadataRecords metadata,
            StreamInfo info, Instant end, Supplier<BucketStatus> look) throws IOException, JetStreamApiException {
        // Written over the configuration as it is now, and never below a later end recorded meanwhile
        // (another instance's skip, or ADR-026's grace): a grace end is only ever lengthened.
        StreamInfo now = BucketStream.find(management);
        StreamInfo current = now == null ? info : now;
        Instant later = BucketIdentity.recordedGrantsFrom(current.getConfiguration().getMetadata())
                .filter(recorded -> recorded.isAfter(end)).orElse(end);
        if (!metadata.record(management, current.getConfiguration(), BucketIdentity.GRANTS_FROM_METADATA,
                later.toString(), "the grace end of a fence skip")) {
            return null;
        }
        BucketStatus judged = look.get();
        boolean serves = judged instanceof BucketStatus.Ready ready
                && ready.grantsFrom().filter(from -> !from.isBefore(end)).isPresent();
        return serves ? judged : null;
    }
}
