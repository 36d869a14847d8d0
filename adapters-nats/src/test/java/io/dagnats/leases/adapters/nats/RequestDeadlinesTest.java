package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class RequestDeadlinesTest {

    private static final Duration TIMEOUT = Duration.ofMillis(200);

    @Test
    void anUnansweredRequestFailsWithATimeoutNoEarlierThanItsDeadlineAndWithinATickOfIt() throws Exception {
        RequestDeadlines deadlines = new RequestDeadlines(TIMEOUT);
        long started = System.nanoTime();
        CompletableFuture<String> request = deadlines.watch(new CompletableFuture<>());

        ExecutionException failed = assertThrows(ExecutionException.class, () -> request.get(5, TimeUnit.SECONDS));
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

        assertInstanceOf(TimeoutException.class, failed.getCause());
        assertTrue(tookMillis >= TIMEOUT.toMillis(), "failed after " + tookMillis + " ms, before its deadline");
        // a tick is 10 ms here; the rest is room for a busy machine
        assertTrue(tookMillis < TIMEOUT.toMillis() + 1_000, "failed only after " + tookMillis + " ms");
    }

    @Test
    void answeredRequestsKeepTheirAnswersWhileOthersTimeOut() throws Exception {
        RequestDeadlines deadlines = new RequestDeadlines(TIMEOUT);
        List<CompletableFuture<String>> answered = new ArrayList<>();
        List<CompletableFuture<String>> unanswered = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            CompletableFuture<String> request = deadlines.watch(new CompletableFuture<>());
            (i % 2 == 0 ? answered : unanswered).add(request);
        }
        answered.forEach(request -> request.complete("answer"));

        for (CompletableFuture<String> request : unanswered) {
            ExecutionException failed = assertThrows(ExecutionException.class, () -> request.get(5, TimeUnit.SECONDS));
            assertInstanceOf(TimeoutException.class, failed.getCause());
        }
        for (CompletableFuture<String> request : answered) {
            assertEquals("answer", request.get());
        }
    }

    @Test
    void requestsWatchedAfterAQuietSpellAreStillWatched() throws Exception {
        RequestDeadlines deadlines = new RequestDeadlines(TIMEOUT);
        CompletableFuture<String> first = deadlines.watch(new CompletableFuture<>());
        assertThrows(ExecutionException.class, () -> first.get(5, TimeUnit.SECONDS)); // nothing left in flight

        CompletableFuture<String> later = deadlines.watch(new CompletableFuture<>());

        ExecutionException failed = assertThrows(ExecutionException.class, () -> later.get(5, TimeUnit.SECONDS));
        assertInstanceOf(TimeoutException.class, failed.getCause());
    }

    @Test
    void aRequestWatchedWithItsOwnTimeoutFailsNoEarlierThanThatDeadlineNotTheDefaultOne() throws Exception {
        RequestDeadlines deadlines = new RequestDeadlines(TIMEOUT);
        long started = System.nanoTime();
        CompletableFuture<String> shorter = deadlines.watch(new CompletableFuture<>(), Duration.ofMillis(20));
        CompletableFuture<String> longer = deadlines.watch(new CompletableFuture<>(), Duration.ofMillis(600));

        ExecutionException failed = assertThrows(ExecutionException.class, () -> shorter.get(5, TimeUnit.SECONDS));
        long shorterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertInstanceOf(TimeoutException.class, failed.getCause());
        assertTrue(shorterMillis >= 20, "failed after " + shorterMillis + " ms, before its deadline");
        assertThrows(ExecutionException.class, () -> longer.get(5, TimeUnit.SECONDS));
        long longerMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertTrue(longerMillis >= 600, "failed after " + longerMillis + " ms, before its own deadline");
    }
}
