package io.dagnats.leases.application;

import io.dagnats.leases.domain.Decision;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseWrite;
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

    static <O> CompletionStage<O> run(
            LeaseStore store,
            LeaseKey key,
            Function<KeyState, Decision<O>> rules,
            BiFunction<LeaseWrite, LeaseStore.WriteOutcome.Written, O> onWritten) {
        return attempt(store, key, rules, onWritten, 1);
    }

    private static <O> CompletionStage<O> attempt(
            LeaseStore store,
            LeaseKey key,
            Function<KeyState, Decision<O>> rules,
            BiFunction<LeaseWrite, LeaseStore.WriteOutcome.Written, O> onWritten,
            int attempt) {
        return store.read(key).thenCompose(state -> {
            Decision<O> decision = rules.apply(state);
            if (decision instanceof Decision.Answer<O> answer) {
                return CompletableFuture.completedFuture(answer.outcome());
            }
            LeaseWrite write = ((Decision.Apply<O>) decision).write();
            return store.write(write).thenCompose(outcome -> {
                if (outcome instanceof LeaseStore.WriteOutcome.Written written) {
                    return CompletableFuture.completedFuture(onWritten.apply(write, written));
                }
                if (attempt >= MAX_ATTEMPTS) {
                    return CompletableFuture.failedFuture(new LeaseFailure(ErrorKind.UNAVAILABLE,
                            "lease " + key + " changed under " + MAX_ATTEMPTS + " writes in a row; retry"));
                }
                return attempt(store, key, rules, onWritten, attempt + 1);
            });
        });
    }
}
