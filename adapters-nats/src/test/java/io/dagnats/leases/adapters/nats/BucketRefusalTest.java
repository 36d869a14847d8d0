package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.domain.ErrorKind;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The bucket gate: which status serves lease calls, and what the others answer. */
class BucketRefusalTest {

    @Test
    void aReadyBucketServesEveryCall() {
        BucketStatus ready = new BucketStatus.Ready("settings",
                BucketIdentity.of(Instant.parse("2026-11-30T13:00:00Z"), 5, Map.of()), Optional.empty(), true);

        assertEquals(Optional.empty(), ready.refusal());
    }

    @Test
    void anUnsupportedBucketAnswersUnsupportedWithTheReasonAlone() {
        BucketStatus unsupported = new BucketStatus.Unsupported("the bucket KV_leases is sealed");

        assertEquals(Optional.of(new BucketStatus.Refusal(ErrorKind.UNSUPPORTED, "the bucket KV_leases is sealed")),
                unsupported.refusal());
    }

    @Test
    void aPendingBucketAnswersUnavailableSayingWhyItIsNotReady() {
        BucketStatus pending = new BucketStatus.Pending("JetStream did not answer: timeout");

        assertEquals(Optional.of(new BucketStatus.Refusal(ErrorKind.UNAVAILABLE,
                "leases not ready yet: JetStream did not answer: timeout")), pending.refusal());
    }
}
