package io.dagnats.leases.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseWrite;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

class SharedReadsTest {

    private static final LeaseKey KEY = new LeaseKey("shard-1");
    private static final LeaseKey OTHER = new LeaseKey("shard-2");

    /** A store whose reads the test answers one by one, in the order they were sent. */
    private static final class HeldReads implements LeaseStore {
        final List<LeaseKey> sent = new ArrayList<>();
        final List<CompletableFuture<KeyState>> pending = new ArrayList<>();

        @Override
        public synchronized CompletionStage<KeyState> read(LeaseKey key) {
            CompletableFuture<KeyState> read = new CompletableFuture<>();
            sent.add(key);
            pending.add(read);
            return read;
        }

        /** The leader answers read number {@code index} (0 is the first sent): the key free at {@code sequence}. */
        void answer(int index, long sequence) {
            pending.get(index).complete(new KeyState.Free(sent.get(index), sequence));
        }

        @Override
        public CompletionStage<WriteOutcome> write(LeaseWrite write) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Identity identity() {
            return Identity.NONE;
        }

        @Override
        public void contradicted(String evidence) {
        }
    }

    private final HeldReads store = new HeldReads();
    private final SharedReads shared = new SharedReads(store);

    private static long sequence(CompletionStage<KeyState> read) {
        return read.toCompletableFuture().join().lastSequence();
    }

    @Test
    void aReadAlreadyInFlightIsNeverJoined() {
        CompletionStage<KeyState> first = shared.read(KEY);
        CompletionStage<KeyState> second = shared.read(KEY);
        assertEquals(1, store.sent.size());

        // The leader answered the first read before the second was asked for: a write acknowledged
        // in between would be missing from it, so the second waits for a read of its own.
        store.answer(0, 5);

        assertEquals(5, sequence(first));
        assertFalse(second.toCompletableFuture().isDone());
        assertEquals(2, store.sent.size());
        store.answer(1, 6);
        assertEquals(6, sequence(second));
    }

    @Test
    void everyoneWhoAskedDuringOneFlightSharesTheNextRead() {
        shared.read(KEY);
        List<CompletionStage<KeyState>> waiting = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            waiting.add(shared.read(KEY));
        }

        store.answer(0, 5);
        store.answer(1, 9);

        assertEquals(2, store.sent.size());
        waiting.forEach(read -> assertEquals(9, sequence(read)));
        assertEquals(0, shared.inFlight());
    }

    @Test
    void aReadAfterTheLastOneEndedIsSentAtOnce() {
        CompletionStage<KeyState> first = shared.read(KEY);
        store.answer(0, 5);
        sequence(first);

        CompletionStage<KeyState> second = shared.read(KEY);

        assertEquals(2, store.sent.size());
        store.answer(1, 6);
        assertEquals(6, sequence(second));
    }

    @Test
    void keysAreReadIndependently() {
        shared.read(KEY);
        shared.read(OTHER);

        assertEquals(List.of(KEY, OTHER), store.sent);
    }

    @Test
    void aFailedReadFailsThoseWhoSharedItAndTheNextOneIsStillSent() {
        shared.read(KEY);
        CompletionStage<KeyState> a = shared.read(KEY);
        CompletionStage<KeyState> b = shared.read(KEY);
        CompletionStage<KeyState> late = null;
        store.answer(0, 5);
        late = shared.read(KEY);

        store.pending.get(1).completeExceptionally(new LeaseFailure(ErrorKind.UNAVAILABLE, "no stream leader"));

        for (CompletionStage<KeyState> failed : List.of(a, b)) {
            CompletionException thrown = assertThrows(CompletionException.class, () -> failed.toCompletableFuture().join());
            assertTrue(thrown.getCause() instanceof LeaseFailure);
        }
        assertEquals(3, store.sent.size());
        store.answer(2, 7);
        assertEquals(7, sequence(late));
    }

    @Test
    void aCallerCannotAnswerTheSharedReadForTheOthers() {
        shared.read(KEY);
        CompletionStage<KeyState> mine = shared.read(KEY);
        CompletionStage<KeyState> theirs = shared.read(KEY);

        mine.toCompletableFuture().complete(new KeyState.Free(KEY, 99));
        store.answer(0, 5);
        store.answer(1, 6);

        assertEquals(6, sequence(theirs));
        assertSame(KEY, store.sent.get(1));
    }
}
