package io.dagnats.leases.application;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A wall clock that moves only when the test says so. */
final class TestingClock extends Clock {
    private Instant now;

    TestingClock(Instant start) {
        this.now = start;
    }

    synchronized void advance(Duration by) {
        now = now.plus(by);
    }

    @Override
    public synchronized Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("the testing clock is UTC only");
    }
}
