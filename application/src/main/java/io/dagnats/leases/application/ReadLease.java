package io.dagnats.leases.application;

import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.LeaseKey;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

/**
 * Says who holds a key, from a leader read, and holds that read against the memory of known
 * leases: an owner query is often the first answer to show that the store repeats revisions (a
 * bucket recreated from a copy of its configuration names another holder at a revision
 * remembered), and then the memory must end before it proposes a write on that revision (ADR-035).
 * The read is not remembered: owner queries of many keys would push out the keys renewed here.
 */
public final class ReadLease {

    private final LeaseWriter writer;

    public ReadLease(LeaseWriter writer) {
        this.writer = Objects.requireNonNull(writer, "writer");
    }

    /** No clock: an owner query proposes nothing from memory. */
    public ReadLease(LeaseStore store, KnownLeases known) {
        this(new LeaseWriter(store, known, Clock.systemUTC()));
    }

    /** The key as the store's leader has it; fails {@code unavailable} when the answer came from another store. */
    public CompletionStage<KeyState> execute(LeaseKey key) {
        return writer.begin().look(key);
    }
}
