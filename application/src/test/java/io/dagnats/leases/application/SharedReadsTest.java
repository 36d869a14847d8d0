package io.dagnats.leases.application;

import java.util.Optional;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SharedReadsTest {

    private static final LeaseKey KEY = new LeaseKey("shard-1");
    private static final LeaseKey OTHER = new LeaseKey("shard-2");

    /** A store whose reads the test answers one by one, in the order they were sent. */
    private static class HeldReads implements LeaseStore {
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
        public CompletionStage<Optional<String>> report(Evidence evidence) {
            return CompletableFuture.completedFuture(Optional.empty());
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

    /**
     * Many threads asking while the leader answers on threads of its own: each answer must come
     * from a read sent after its caller asked. Each read answers with its own send number; a caller
     * notes how many reads had been sent when it asked.
     */
    @Test
    void underConcurrencyEveryAnswerComesFromAReadSentAfterItsCallerAsked() throws Exception {
        AtomicLong sends = new AtomicLong();
        ScheduledExecutorService leader = Executors.newScheduledThreadPool(2);
        LeaseStore slow = new HeldReads() {
            @Override
            public CompletionStage<KeyState> read(LeaseKey key) {
                long number = sends.incrementAndGet();
                CompletableFuture<KeyState> read = new CompletableFuture<>();
                leader.schedule(() -> read.complete(new KeyState.Free(key, number)),
                        ThreadLocalRandom.current().nextInt(200), TimeUnit.MICROSECONDS);
                return read;
            }
        };
        SharedReads reads = new SharedReads(slow);
        ExecutorService callers = Executors.newFixedThreadPool(8);
        List<Future<String>> verdicts = new ArrayList<>();
        for (int caller = 0; caller < 8; caller++) {
            verdicts.add(callers.submit(() -> {
                for (int i = 0; i < 2_000; i++) {
                    long sentBefore = sends.get();
                    long answeredBy = reads.read(KEY).toCompletableFuture().join().lastSequence();
                    if (answeredBy <= sentBefore) {
                        return "answered by read " + answeredBy + ", but " + sentBefore + " were sent before it asked";
                    }
                }
                return "ok";
            }));
        }
        for (Future<String> verdict : verdicts) {
            assertEquals("ok", verdict.get());
        }
        callers.shutdown();
        leader.shutdown();
        assertEquals(0, reads.inFlight());
        assertTrue(sends.get() < 16_000, "reads were shared: " + sends.get() + " sent for 16000 asked");
    }
}
