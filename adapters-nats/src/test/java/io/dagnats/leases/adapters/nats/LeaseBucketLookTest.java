package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertSame;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What one look that JetStream did not fully answer does to a bucket judged ready. */
class LeaseBucketLookTest {

    private static final BucketStatus.Ready READY = new BucketStatus.Ready("settings",
            BucketIdentity.of(Instant.parse("2026-11-30T12:00:00Z"), 5, Map.of()), Optional.empty(), true);

    @Test
    void aLookJetStreamDidNotAnswerKeepsServing() {
        BucketStatus.Pending noAnswer = new BucketStatus.Pending("JetStream did not answer");

        assertSame(READY, LeaseBucket.afterLook(noAnswer, READY, false));
    }

    /** The bucket served is gone: this look proved it, whatever the create or the read back answered. */
    @Test
    void aLookThatFoundTheStreamMissingStopsServing() {
        BucketStatus.Pending notReadBack = new BucketStatus.Pending("JetStream did not answer");

        assertSame(notReadBack, LeaseBucket.afterLook(notReadBack, READY, true));
    }

    @Test
    void aJudgedLookIsKept() {
        BucketStatus.Unsupported refused = new BucketStatus.Unsupported("no");

        assertSame(refused, LeaseBucket.afterLook(refused, READY, false));
    }
}
