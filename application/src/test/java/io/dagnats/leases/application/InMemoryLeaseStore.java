package io.dagnats.leases.application;

import java.util.Optional;
import io.dagnats.leases.domain.AttachedLiveness;
import io.dagnats.leases.domain.AttachedRecord;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseWrite;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A hand-written store with the JetStream semantics the use cases rely on: one
 * stream sequence across all keys, compare-and-set on a key's last sequence,
 * and expiry that the test drives by hand.
 */
final class InMemoryLeaseStore implements LeaseStore {

    private final Map<LeaseKey, KeyState> keys = new HashMap<>();
    private final List<LeaseWrite> applied = new ArrayList<>();
    private long sequence;
    private int reads;
    private Runnable beforeNextWrite = () -> { };
    private Identity identity = new Identity("store-1", true);
    private int incarnations = 1;
    private final List<String> contradictions = new ArrayList<>();
    private final List<String> repeats = new ArrayList<>();
    private String withheld;

    InMemoryLeaseStore() {
    }

    @Override
    public synchronized CompletionStage<KeyState> read(LeaseKey key) {
        reads++;
        KeyState state = keys.getOrDefault(key, new KeyState.Free(key, 0));
        if (state instanceof KeyState.Held held && held.lease().attachment().isPresent()) {
            // As the NATS store reads: an attached key is judged by its member's read (ADR-043).
            Lease lease = held.lease();
            AttachedRecord record = new AttachedRecord(key, lease.claimant(), lease.revision(), lease.tenure(),
                    lease.acquiredAt(), lease.attachment().get());
            LeaseKey member = lease.attachment().get().member();
            return CompletableFuture.completedFuture(
                    AttachedLiveness.judge(record, keys.getOrDefault(member, new KeyState.Free(member, 0))));
        }
        return CompletableFuture.completedFuture(state);
    }

    @Override
    public CompletionStage<WriteOutcome> write(LeaseWrite write) {
        Runnable hook;
        synchronized (this) {
            hook = beforeNextWrite;
            beforeNextWrite = () -> { };
        }
        hook.run();
        synchronized (this) {
            if (withheld != null && write instanceof LeaseWrite.Put) {
                return CompletableFuture.completedFuture(new WriteOutcome.Withheld(withheld));
            }
            KeyState current = keys.getOrDefault(write.key(), new KeyState.Free(write.key(), 0));
            if (current.lastSequence() != write.expectedSequence()) {
                return CompletableFuture.completedFuture(new WriteOutcome.Conflict());
            }
            Fence revision = new Fence(++sequence);
            WriteOutcome.Written written = new WriteOutcome.Written(revision);
            if (write instanceof LeaseWrite.Put put) {
                keys.put(write.key(), new KeyState.Held(put.leaseAt(revision)));
            } else {
                keys.put(write.key(), new KeyState.Free(write.key(), revision.revision()));
            }
            applied.add(write);
            return CompletableFuture.completedFuture(written);
        }
    }

    @Override
    public synchronized Identity identity() {
        return identity;
    }

    /** Only recorded: this store's identity is the test's to choose, and it never proves it went back. */
    @Override
    public synchronized CompletionStage<Optional<String>> report(Evidence evidence) {
        if (evidence instanceof Evidence.Contradicted contradicted) {
            contradictions.add(contradicted.evidence());
        } else if (evidence instanceof Evidence.RevisionsRepeat repeat) {
            repeats.add(repeat.evidence());
        }
        return CompletableFuture.completedFuture(Optional.empty());
    }

    synchronized List<String> repeats() {
        return List.copyOf(repeats);
    }

    synchronized List<String> contradictions() {
        return List.copyOf(contradictions);
    }

    /**
     * The bucket is deleted and created again, its next sequence {@code firstSequence}.
     *
     * @param announced whether {@link #identity()} shows the new incarnation yet (a running
     *                  service notices only at its next check)
     * @param neverRepeats whether the new incarnation's sequences are known to be above the old ones
     */
    synchronized void recreate(long firstSequence, boolean announced, boolean neverRepeats) {
        keys.clear();
        sequence = firstSequence - 1;
        incarnations++;
        if (announced) {
            identity = new Identity("store-" + incarnations, neverRepeats);
        }
    }

    /** Puts (grants and renewals) are withheld with {@code reason} (a replaced bucket's grace period); null grants again. */
    synchronized void withholdGrants(String reason) {
        withheld = reason;
    }

    /** Another instance writes straight into the store, unseen by the memory under test. */
    synchronized KeyState writeUnseen(LeaseWrite.Put put) {
        KeyState state = new KeyState.Held(put.leaseAt(new Fence(++sequence)));
        keys.put(put.key(), state);
        return state;
    }

    /** Another writer takes the key just before the next write lands. */
    synchronized void interleaveBeforeNextWrite(Runnable writer) {
        beforeNextWrite = writer;
    }

    /** The server's TTL ran out: the key is free, behind an expiry marker. */
    synchronized void expire(LeaseKey key) {
        keys.put(key, new KeyState.Free(key, ++sequence));
    }

    synchronized int reads() {
        return reads;
    }

    synchronized List<LeaseWrite> applied() {
        return List.copyOf(applied);
    }
}
