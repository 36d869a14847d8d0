package io.dagnats.leases.application;

import io.dagnats.leases.domain.Decision;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.LeaseWrite;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;

/**
 * The one place that reads, decides and writes a key (ADR-038): read, decide, write; on a lost
 * race read again and decide again (by rules the call may narrow after losing), so every answer
 * is true of the key as it was when the answer was made. Every answer of the store is held
 * against the memory of known leases here, and only here, and what it proves of the store is
 * reported back to it from here. Acquire, renew, release and revoke are its rules; a forward
 * and an owner query read through it ({@link #begin()}).
 *
 * <p>Built once per store, memory and clock; it keeps no state of its own between calls.
 */
public final class LeaseWriter {

    /** Races lost in a row before the caller is told to retry later. */
    static final int MAX_ATTEMPTS = 3;

    private final LeaseStore store;
    private final KnownLeases known;
    private final Clock clock;

    /** @param clock this instance's wall clock, only ever used to propose less from memory, and for the rules' now */
    public LeaseWriter(LeaseStore store, KnownLeases known, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.known = Objects.requireNonNull(known, "known");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** This instance's wall clock, at the precision a lease record stores. */
    Instant now() {
        return Clocks.now(clock);
    }

    /** Starts one call on the store as it is now. */
    Call begin() {
        return new Call(known.begin(store.identity()));
    }

    /**
     * Decides {@code key} by {@code rules} and writes what they decide, answering
     * {@code onWritten} of the write the store applied.
     *
     * @param assumeFree when the key is not remembered, try the write as if the key had
     *                   never been written (an acquire of a fresh key is then one write)
     */
    <O> CompletionStage<O> write(LeaseKey key, boolean assumeFree, CallRules<O> rules,
            BiFunction<LeaseWrite, LeaseStore.WriteOutcome.Written, O> onWritten) {
        return begin().write(key, assumeFree, rules, onWritten);
    }

    /**
     * One compare-and-set of {@code write} with no read before it: the write names the revision it
     * expects, and a {@link LeaseStore.WriteOutcome.Conflict} is the answer when the key moved on. For
     * writes that change no owner whatever the key's state (the {@code freed} tombstone of a key attached
     * to a member lease that ended, ADR-043); an applied write is remembered as any other.
     */
    CompletionStage<LeaseStore.WriteOutcome> propose(LeaseWrite write) {
        Call call = begin();
        return store.write(write).thenCompose(outcome -> outcome instanceof LeaseStore.WriteOutcome.Written written
                ? call.written(write, written, (applied, same) -> outcome)
                : CompletableFuture.completedFuture(outcome));
    }

    /**
     * Checks a revision a renew or release presented, after it was answered lost below it, against
     * the store (ADR-037); evidence that the store went back forgets the memory, whose revisions the
     * store may now issue again. Never fails: no answer proves nothing.
     */
    CompletionStage<Optional<String>> wentBackBelow(LeaseKey key, Fence presented, Optional<LeaseTtl> ttl) {
        return store.report(new LeaseStore.Evidence.PresentedAbove(key, presented, ttl))
                .exceptionally(noAnswer -> Optional.empty())
                .thenApply(evidence -> {
                    evidence.ifPresent(proof -> known.forget());
                    return evidence;
                });
    }

    /** The era of the memory of the store as it is now: what memory learnt now is of. */
    KnownLeases.Era era() {
        return known.era(known.begin(store.identity()));
    }

    /**
     * Whether a write may be proposed from memory learnt in {@code learnt}: the memory has not
     * forgotten since (the store went back, repeated a revision, or is another), and the store's
     * revisions never repeat. Otherwise a remembered revision may name another write now.
     */
    boolean mayProposeFrom(KnownLeases.Era learnt) {
        KnownLeases.Ticket ticket = known.begin(store.identity());
        return known.era(ticket).equals(learnt) && known.revisionsHold(ticket);
    }

    /** One call: the store's identity as it began, and how far the memory had got then. */
    final class Call {

        private final KnownLeases.Ticket ticket;

        private Call(KnownLeases.Ticket ticket) {
            this.ticket = ticket;
        }

        /**
         * The lease this instance last saw holding {@code key}, while that write's advisory expiry is
         * still ahead on this instance's clock; past it, the lease was renewed elsewhere or has ended.
         * Never an attached key (ADR-043): it lives by its member lease, which may have ended without
         * a write on the key, so only a leader read can say who holds it.
         */
        Optional<Lease> rememberedLease(LeaseKey key) {
            Instant now = clock.instant();
            return known.lastSeen(ticket, key)
                    .filter(KeyState.Held.class::isInstance)
                    .map(state -> ((KeyState.Held) state).lease())
                    .filter(lease -> !lease.isAttached())
                    .filter(lease -> now.isBefore(lease.expiresAt()));
        }

        /** A leader read of {@code key}, remembered; fails {@code unavailable} when it contradicts the memory. */
        CompletionStage<KeyState> read(LeaseKey key) {
            return store.read(key).thenCompose(state -> seen(key, known.saw(ticket, state), state));
        }

        /**
         * A leader read of {@code key} held against the memory but not remembered: owner queries of
         * many keys would push out the keys renewed here.
         */
        CompletionStage<KeyState> look(LeaseKey key) {
            return store.read(key).thenCompose(state -> seen(key, known.checked(ticket, state), state));
        }

        private <O> CompletionStage<O> write(LeaseKey key, boolean assumeFree, CallRules<O> rules,
                BiFunction<LeaseWrite, LeaseStore.WriteOutcome.Written, O> onWritten) {
            Optional<KeyState> remembered = known.lastSeen(ticket, key);
            KeyState assumed = remembered.isPresent() && pastItsExpiry(remembered.get(), now()) ? null
                    : remembered.orElse(assumeFree && known.enabled(ticket) ? new KeyState.Free(key, 0) : null);
            if (assumed != null) {
                // Only a write the store accepts is trusted; an answer (held, lost) always comes from a read.
                Decision<O> proposal = rules.decide(assumed);
                if (proposal instanceof Decision.Apply<O> apply) {
                    LeaseWrite write = apply.write();
                    return store.write(write).thenCompose(outcome -> {
                        if (outcome instanceof LeaseStore.WriteOutcome.Written written) {
                            return written(write, written, onWritten);
                        }
                        // The remembered state stays until the read below supersedes it, so that a read
                        // showing the key's sequence gone back is caught as the contradiction it is.
                        // A withheld grant is decided again from the read too: the key may be held.
                        CallRules<O> next = outcome instanceof LeaseStore.WriteOutcome.Conflict
                                ? rules.afterLosing(write) : rules;
                        return attempt(key, next, onWritten, 1);
                    });
                }
            }
            return attempt(key, rules, onWritten, 1);
        }

        private <O> CompletionStage<O> attempt(LeaseKey key, CallRules<O> rules,
                BiFunction<LeaseWrite, LeaseStore.WriteOutcome.Written, O> onWritten, int attempt) {
            return read(key).thenCompose(state -> {
                Decision<O> decision = rules.decide(state);
                if (decision instanceof Decision.Answer<O> answer) {
                    return CompletableFuture.completedFuture(answer.outcome());
                }
                LeaseWrite write = ((Decision.Apply<O>) decision).write();
                return store.write(write).thenCompose(outcome -> {
                    if (outcome instanceof LeaseStore.WriteOutcome.Written written) {
                        return written(write, written, onWritten);
                    }
                    if (outcome instanceof LeaseStore.WriteOutcome.Withheld withheld) {
                        return CompletableFuture.failedFuture(new LeaseFailure(ErrorKind.UNAVAILABLE, withheld.reason()));
                    }
                    if (attempt >= MAX_ATTEMPTS) {
                        return CompletableFuture.failedFuture(new LeaseFailure(ErrorKind.UNAVAILABLE,
                                "lease " + key + " changed under " + MAX_ATTEMPTS + " writes in a row; retry"));
                    }
                    return attempt(key, rules.afterLosing(write), onWritten, attempt + 1);
                });
            });
        }

        private <O> CompletionStage<O> written(LeaseWrite write, LeaseStore.WriteOutcome.Written written,
                BiFunction<LeaseWrite, LeaseStore.WriteOutcome.Written, O> onWritten) {
            KeyState state = write instanceof LeaseWrite.Put put
                    ? new KeyState.Held(put.leaseAt(written.revision()))
                    : new KeyState.Free(write.key(), written.revision().revision());
            return seen(write.key(), known.saw(ticket, state), state)
                    .thenApply(applied -> onWritten.apply(write, written));
        }
    }

    /**
     * {@code state}, unless the memory's {@code sight} of it proves the store is not the one it
     * was. A key's sequence gone back means another store answered (deleted and recreated), whose
     * fences may repeat: nothing is answered from it until it has checked itself again. Another
     * write at a revision remembered means the store repeats revisions: the call goes on from the
     * answer (a true read of the store, or the write it just applied), the store stops claiming that
     * its revisions never repeat, and the memory has ended (ADR-035).
     */
    private CompletionStage<KeyState> seen(LeaseKey key, KnownLeases.Sight sight, KeyState state) {
        if (sight == KnownLeases.Sight.WENT_BACK) {
            String evidence = "lease " + key + " went back to sequence " + state.lastSequence();
            store.report(new LeaseStore.Evidence.Contradicted(evidence));
            return CompletableFuture.failedFuture(new LeaseFailure(ErrorKind.UNAVAILABLE,
                    "the lease store changed under this call (" + evidence + "); retry"));
        }
        if (sight == KnownLeases.Sight.REUSED) {
            store.report(new LeaseStore.Evidence.RevisionsRepeat("lease " + key + " showed another write at revision "
                    + state.lastSequence() + " than the one remembered there"));
        }
        return CompletableFuture.completedFuture(state);
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
}
