package io.dagnats.leases.holder.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The work of one tenure: cancelled the moment ownership ends, and what a handover waits for is
 * the work having returned (its thread left it), not merely its cancellation.
 */
class TenureWorksTest {

    private final TenureWorks works = new TenureWorks(Daemons.named("test-tenure"));

    @Test
    void cancelInterruptsTrackedWorkAndRunsEachCallbackOnce() throws Exception {
        List<String> ran = new CopyOnWriteArrayList<>();
        CountDownLatch started = new CountDownLatch(1);
        Future<String> work = works.run(() -> {
            started.countDown();
            Thread.sleep(60_000);
            return "never";
        });
        works.onCancel(() -> ran.add("cancelled"));
        started.await(10, TimeUnit.SECONDS);

        works.cancel();
        works.cancel();

        assertTrue(works.isCancelled());
        assertTrue(work.isCancelled());
        assertEquals(List.of("cancelled"), ran);
        works.returned(TimeUnit.SECONDS.toNanos(10)).get(10, TimeUnit.SECONDS);
    }

    @Test
    void workThatReturnsNothingRunsTrackedToo() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        Future<?> work = works.run(ran::countDown);

        work.get(10, TimeUnit.SECONDS);
        assertEquals(0, ran.getCount());
    }

    @Test
    void aCallbackOrWorkAddedAfterTheEndRunsOrIsCancelledAtOnce() {
        works.cancel();
        List<String> ran = new CopyOnWriteArrayList<>();
        works.onCancel(() -> ran.add("late"));
        CompletableFuture<Void> late = works.track(new CompletableFuture<>());

        assertEquals(List.of("late"), ran);
        assertTrue(late.isCancelled());
    }

    @Test
    void workThatIgnoresItsCancellationFailsTheWaitAtTheBound() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        runStubbornWork(started, release);
        started.await(10, TimeUnit.SECONDS);
        works.cancel();

        CompletableFuture<Void> waited = works.returned(TimeUnit.MILLISECONDS.toNanos(100));
        assertThrows(ExecutionException.class, () -> waited.get(10, TimeUnit.SECONDS));
        assertFalse(waited.isDone() && !waited.isCompletedExceptionally());
        release.countDown();
        works.returned(TimeUnit.SECONDS.toNanos(10)).get(10, TimeUnit.SECONDS);
    }

    @Test
    void theNextWindowWaitsForTheEarlierWindowsWorkUntilItReturnedAndNoLonger() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        runStubbornWork(started, release);
        assertTrue(started.await(10, TimeUnit.SECONDS));
        works.cancel();
        TenureWorks second = works.next(Daemons.named("test-tenure"));

        CompletableFuture<Void> waited = second.returned(TimeUnit.MILLISECONDS.toNanos(100));
        assertThrows(ExecutionException.class, () -> waited.get(10, TimeUnit.SECONDS),
                "the second window has no work of its own, yet the first's still runs");
        second.cancel();
        TenureWorks third = second.next(Daemons.named("test-tenure"));
        assertThrows(ExecutionException.class, () -> third.returned(TimeUnit.MILLISECONDS.toNanos(100))
                .get(10, TimeUnit.SECONDS), "carried over through a window that started nothing");

        release.countDown();
        third.returned(TimeUnit.SECONDS.toNanos(10)).get(10, TimeUnit.SECONDS);
        third.cancel();
        assertTrue(third.next(Daemons.named("test-tenure")).returned(1).isDone(), "returned work is carried no further");
    }

    /** Work that ignores its interrupts (as blocked I/O does) and returns only once {@code release} opens. */
    private void runStubbornWork(CountDownLatch started, CountDownLatch release) {
        works.run(() -> {
            started.countDown();
            while (true) {
                try {
                    release.await();
                    return null;
                } catch (InterruptedException ignored) {
                    // the stubborn work goes on, past its window too
                }
            }
        });
    }
}
