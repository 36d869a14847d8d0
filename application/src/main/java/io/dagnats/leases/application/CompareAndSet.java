package io.dagnats.leases.application;

import io.dagnats.leases.domain.Decision;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseWrite;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Read, decide, write; on a lost race read again and decide again, so every
 * answer is true of the key as it was when the answer was made.
 */
final class CompareAndSet {

    /** Races lost in a row before the caller is told to retry later. */
    static final int MAX_ATTEMPTS = 3;

    private CompareAndSet() {
    }

    /**
     * @param assumeFree when the key is not remembered, try the write as if the key had
     *                   never been written (an acquire of a fresh key is then one write)
     */
    static <O> CompletionStage<O> run(
            LeaseStore store,
            KnownLeases known,
            LeaseKey key,
            boolean assumeFree,
            Function<KeyState, Decision<O>> rules,
            BiFunction<LeaseWrite, LeaseStore.WriteOutcome.Written, O> onWritten) {
        Optional<KeyState> remembered = known.lastSeen(key);
        KeyState assumed = remembered.orElse(assumeFree && known.enabled() ? new KeyState.Free(key, 0) : null);
        if (assumed != null) {
            // Only a write the store accepts is trusted; an answer (held, lost) always comes from a read.
            Decision<O> proposal = rules.apply(assumed);
            if (proposal instanceof Decision.Apply<O> apply) {
                LeaseWrite write = apply.write();
                return store.write(write).thenCompose(outcome -> {
                    if (outcome instanceof LeaseStore.WriteOutcome.Written written) {
                        remember(known, write, written);
                        return CompletableFuture.completedFuture(onWritten.apply(write, written));
                    }
                    known.forget(key);
                    return attempt(store, known, key, rules, onWritten, 1);
                });
            }
        }
        return attempt(store, known, key, rules, onWritten, 1);
    }

    private static <O> CompletionStage<O> attempt(
            LeaseStore store,
            KnownLeases known,
            LeaseKey key,
            Function<KeyState, Decision<O>> rules,
            BiFunction<LeaseWrite, LeaseStore.WriteOutcome.Written, O> onWritten,
            int attempt) {
        return store.read(key).thenCompose(state -> {
            known.saw(state);
            Decision<O> decision = rules.apply(state);
            if (decision instanceof Decision.Answer<O> answer) {
                return CompletableFuture.completedFuture(answer.outcome());
            }
            LeaseWrite write = ((Decision.Apply<O>) decision).write();
            return store.write(write).thenCompose(outcome -> {
                if (outcome instanceof LeaseStore.WriteOutcome.Written written) {
                    remember(known, write, written);
                    return CompletableFuture.completedFuture(onWritten.apply(write, written));
                }
                if (attempt >= MAX_ATTEMPTS) {
                    return CompletableFuture.failedFuture(new LeaseFailure(ErrorKind.UNAVAILABLE,
                            "lease " + key + " changed under " + MAX_ATTEMPTS + " writes in a row; retry"));
                }
                return attempt(store, known, key, rules, onWritten, attempt + 1);
            });
        });
    }

    private static void remember(KnownLeases known, LeaseWrite write, LeaseStore.WriteOutcome.Written written) {
        if (write instanceof LeaseWrite.Put put) {
            known.saw(new KeyState.Held(put.leaseAt(written.revision())));
        } else {
            known.saw(new KeyState.Free(write.key(), written.revision().revision()));
        }
    }
}
