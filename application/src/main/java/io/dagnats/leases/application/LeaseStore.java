package io.dagnats.leases.application;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseWrite;
import java.util.concurrent.CompletionStage;

/**
 * Where leases live, and the only thing that can make one expire: the store
 * frees a key {@code ttl} after its last write, whatever any clock says.
 *
 * <p>Every method answers asynchronously and never blocks the caller's thread.
 * A stage that fails does so with {@link LeaseFailure}: {@link ErrorKind#UNAVAILABLE}
 * when the store did not answer in time, {@link ErrorKind#UNSUPPORTED} when it
 * cannot serve leases, {@link ErrorKind#INTERNAL} for a record it cannot read.
 */
public interface LeaseStore {

    /**
     * Reads a key as the store's leader sees it, so a lagging replica can never
     * report a stale owner. A key that was never written, was released, or
     * expired is {@link KeyState.Free}, never absent.
     */
    CompletionStage<KeyState> read(LeaseKey key);

    /**
     * Applies {@code write} only if the key's last sequence is still
     * {@link LeaseWrite#expectedSequence()}. A write that loses that race is the
     * normal answer {@link WriteOutcome.Conflict}, and changes nothing.
     */
    CompletionStage<WriteOutcome> write(LeaseWrite write);

    /** What became of one compare-and-set write. */
    sealed interface WriteOutcome {

        /** Applied: {@code revision} is the new fence. */
        record Written(Fence revision) implements WriteOutcome {
        }

        /** Not applied: the key moved on since it was read. */
        record Conflict() implements WriteOutcome {
        }
    }
}
