package io.dagnats.leases.application;

import io.dagnats.leases.domain.Decision;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.LeaseWrite;
import io.dagnats.leases.domain.Lost;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One renew or release's presented revision, held against what the store showed of the key
 * (ADR-037). A store whose sequences only grow never shows a key below a revision it issued
 * for it, except when the key's last message is gone (sequence 0: expired long ago). So a
 * {@code lost} answer decided from a read below the presented revision is checked against the
 * store's last sequence (unless a live lease holds the key): a revision above it proves the store went back, and the memory of known
 * leases, which may hold revisions the store will now issue again, is forgotten. The answer stays
 * {@code lost} either way; the check costs one request, only on that path.
 */
final class PresentedRevision<O> {

    private final LeaseKey key;
    private final Fence presented;
    private final Optional<LeaseTtl> ttl;
    /** The key's sequence in the last state the rules decided from (the call's last leader read). */
    private final AtomicLong decidedFrom = new AtomicLong(Long.MAX_VALUE);

    PresentedRevision(LeaseKey key, Fence presented, Optional<LeaseTtl> ttl) {
        this.key = Objects.requireNonNull(key, "key");
        this.presented = Objects.requireNonNull(presented, "presented");
        this.ttl = Objects.requireNonNull(ttl, "ttl");
    }

    /** {@code rules}, noting the sequence of every state they decide from. */
    CallRules<O> watching(CallRules<O> rules) {
        return new CallRules<>() {
            @Override
            public Decision<O> decide(KeyState state) {
                decidedFrom.set(comparable(state));
                return rules.decide(state);
            }

            @Override
            public CallRules<O> afterLosing(LeaseWrite lost) {
                return watching(rules.afterLosing(lost));
            }
        };
    }

    /**
     * The sequence a decision from {@code state} is held against the presented revision with; none
     * (the largest) for a key a live lease holds.
     *
     * <p>A key held by a live lease, the caller's or another's, at a lower revision proves nothing: a
     * stale or foreign renew (the guide: it is lost and changes nothing) reads exactly like a
     * rollback that kept an older write, and a client that adds to a holder's revision must not end
     * every lease in the bucket. After a real rollback the holder library releases its own older
     * record before it presents its fence; another holder's lease there delays the proof until it
     * ends, and meanwhile the holders' own refusal to own at or below their fences is what protects.
     */
    static long comparable(KeyState state) {
        return state instanceof KeyState.Held ? Long.MAX_VALUE : state.lastSequence();
    }

    /** Whether a {@code lost} answer shows the key below the presented revision: only then is the store asked. */
    static boolean showedBelow(long decidedFrom, Fence presented) {
        return Long.compareUnsigned(decidedFrom, presented.revision()) < 0;
    }

    /** {@code outcome}, after a {@code lost} one shown below the presented revision was checked against the store. */
    CompletionStage<O> checked(LeaseWriter writer, O outcome) {
        if (!(outcome instanceof Lost) || !showedBelow(decidedFrom.get(), presented)) {
            return CompletableFuture.completedFuture(outcome);
        }
        return writer.wentBackBelow(key, presented, ttl).thenApply(evidence -> outcome);
    }
}
