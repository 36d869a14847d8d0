package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ServedBucketTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final ServedBucket served = new ServedBucket(now::get);

    @Test
    void putsAreWithheldOnceNoLookJetStreamAnsweredIsRecentEnough() {
        served.set(new BucketStatus.Pending("looked"), true);
        advance(ServedBucket.UNLOOKED.minusMillis(1));
        assertEquals(Optional.empty(), served.unlooked(), "a look answered just under the bound ago");

        served.set(new BucketStatus.Pending("JetStream did not answer"), false);
        advance(Duration.ofMillis(1));
        assertTrue(served.unlooked().isPresent(), "a look JetStream did not answer does not count");

        served.set(new BucketStatus.Pending("looked again"), true);
        assertEquals(Optional.empty(), served.unlooked(), "an answered look serves puts again");
    }

    private void advance(Duration by) {
        now.addAndGet(by.toNanos());
    }
}
