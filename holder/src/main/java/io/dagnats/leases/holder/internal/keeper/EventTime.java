package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.holder.internal.FenceFloors;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The time of one event: the monotonic clock deadlines run on, and the wall clock expiries are
 * read on; with the key's floor, which no answer of the store may go back to: its grant floor
 * ({@link FenceFloors#grantFloor}) as the event found it, or for an answer as its request was sent,
 * with the fences confirmed since ({@link FloorsAtSend}).
 */
public record EventTime(long nanos, Instant wall, Optional<Fence> floor) {
    public EventTime {
        Objects.requireNonNull(wall, "wall");
        Objects.requireNonNull(floor, "floor");
    }

    /** A key this process never owned. */
    public EventTime(long nanos, Instant wall) {
        this(nanos, wall, Optional.empty());
    }
}
