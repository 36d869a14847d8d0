package io.dagnats.leases.application;

import io.dagnats.leases.domain.Decision;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseWrite;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;

/**
 * Read, decide, write; on a lost race read again and decide again (by rules the
 * call may narrow after losing), so every answer is true of the key as it was
 * when the answer was made.
 */
final class CompareAndSet {

    /** Races lost in a row before the caller is told to retry later. */
    static final int MAX_ATTEMPTS = 3;

    private CompareAndSet() {
    }

    /**
     * @param assumeFree when the key is not remembered, try the write as if the key had
     *                   never been written (an acquire of a fresh key is then one write)
     * @param now        this instance's wall clock, only ever used to propose less from memory
     */
    static <O> CompletionStage<O> run(
            LeaseStore store,
            KnownLeases known,
            LeaseKey key,
            boolean assumeFree,
            Instant now,
            CallRules<O> rules,
            BiFunction<LeaseWrite, LeaseStore.WriteOutcome.Written, O> onWritten) {
        KnownLeases.Ticket ticket = known.begin(store.identity());
        Optional<KeyState> remembered = known.lastSeen(ticket, key);
        KeyState assumed = remembered.isPresent() && pastItsExpiry(remembered.get(), now) ? null
                : remembered.orElse(assumeFree && known.enabled(ticket) ? new KeyState.Free(key, 0) : null);
        if (assumed != null) {
            // Only a write the store accepts is trusted; an answer (held, lost) always comes from a read.
            Decision<O> proposal = rules.decide(assumed);
            if (proposal instanceof Decision.Apply<O> apply) {
                LeaseWrite write = apply.write();
                return store.write(write).thenCompose(outcome -> {
                    if (outcome instanceof LeaseStore.WriteOutcome.Written written) {
                        return written(store, known, ticket, write, written, onWritten);
                    }
                    // The remembered state stays until the read below supersedes it, so that a read
                    // showing the key's sequence gone back is caught as the contradiction it is.
                    // A withheld grant is decided again from the read too: the key may be held.
                    CallRules<O> next = outcome instanceof LeaseStore.WriteOutcome.Conflict
                            ? rules.afterLosing(write) : rules;
                    return attempt(store, known, ticket, key, next, onWritten, 1);
                });
            }
        }
        return attempt(store, known, ticket, key, rules, onWritten, 1);
    }

    /**
     * A remembered lease whose advisory expiry is past on this instance's clock proposes nothing: the
     * store may have forgotten to expire it (a crash, ADR-035), and a compare-and-set on its revision
     * would renew or release a lease that ended. The call reads, and the store judges the lease on
     * the server's clock. This clock only ever costs a read here, never frees a lease: if it runs
     * ahead, a live lease is read and renewed as before.
     */
    private static boolean pastItsExpiry(KeyState remembered, Instant now) {
        return remembered instanceof KeyState.Held held && !now.isBefore(held.lease().expiresAt());
    }

    private static <O> CompletionStage<O> attempt(
            LeaseStore store,
            KnownLeases known,
            KnownLeases.Ticket ticket,
            LeaseKey key,
            CallRules<O> rules,
            BiFunction<LeaseWrite, LeaseStore.WriteOutcome.Written, O> onWritten,
            int attempt) {
        return store.read(key).thenCompose(state -> {
            KnownLeases.Sight sight = known.saw(ticket, state);
            if (sight == KnownLeases.Sight.WENT_BACK) {
                return contradicted(store, key, state);
            }
            if (sight == KnownLeases.Sight.REUSED) {
                // The memory is gone; the read is the store as it is, decided from as without memory.
                reused(store, key, state);
            }
            Decision<O> decision = rules.decide(state);
            if (decision instanceof Decision.Answer<O> answer) {
                return CompletableFuture.completedFuture(answer.outcome());
            }
            LeaseWrite write = ((Decision.Apply<O>) decision).write();
            return store.write(write).thenCompose(outcome -> {
                if (outcome instanceof LeaseStore.WriteOutcome.Written written) {
                    return written(store, known, ticket, write, written, onWritten);
                }
                if (outcome instanceof LeaseStore.WriteOutcome.Withheld withheld) {
                    return CompletableFuture.failedFuture(new LeaseFailure(ErrorKind.UNAVAILABLE, withheld.reason()));
                }
                if (attempt >= MAX_ATTEMPTS) {
                    return CompletableFuture.failedFuture(new LeaseFailure(ErrorKind.UNAVAILABLE,
                            "lease " + key + " changed under " + MAX_ATTEMPTS + " writes in a row; retry"));
                }
                return attempt(store, known, ticket, key, rules.afterLosing(write), onWritten, attempt + 1);
            });
        });
    }

    private static <O> CompletionStage<O> written(
            LeaseStore store,
            KnownLeases known,
            KnownLeases.Ticket ticket,
            LeaseWrite write,
            LeaseStore.WriteOutcome.Written written,
            BiFunction<LeaseWrite, LeaseStore.WriteOutcome.Written, O> onWritten) {
        KeyState state = write instanceof LeaseWrite.Put put
                ? new KeyState.Held(put.leaseAt(written.revision()))
                : new KeyState.Free(write.key(), written.revision().revision());
        KnownLeases.Sight sight = known.saw(ticket, state);
        if (sight == KnownLeases.Sight.WENT_BACK) {
            return contradicted(store, write.key(), state);
        }
        if (sight == KnownLeases.Sight.REUSED) {
            reused(store, write.key(), state);
        }
        return CompletableFuture.completedFuture(onWritten.apply(write, written));
    }

    /**
     * The store answered another write at a revision remembered: it repeats revisions. The call goes
     * on from the answer (a true read of the store, or the write it just applied); the store stops
     * claiming that its revisions never repeat, and the memory has ended (ADR-035).
     */
    static void reused(LeaseStore store, LeaseKey key, KeyState state) {
        store.revisionsRepeat("lease " + key + " showed another write at revision " + state.lastSequence()
                + " than the one remembered there");
    }

    /**
     * The store answered a lower sequence for a key than one it answered before this call: it
     * is not the store that answered then (deleted and recreated), and its fences may repeat.
     * Nothing is answered from it until it has checked itself again.
     */
    static <O> CompletionStage<O> contradicted(LeaseStore store, LeaseKey key, KeyState state) {
        String evidence = "lease " + key + " went back to sequence " + state.lastSequence();
        store.contradicted(evidence);
        return CompletableFuture.failedFuture(new LeaseFailure(ErrorKind.UNAVAILABLE,
                "the lease store changed under this call (" + evidence + "); retry"));
    }
}
