package io.dagnats.leases.acceptance.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.Tenure;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A listener told {@code shardAssigned} after the shard set had already let the shard go (the
 * holder tells listeners on a thread of their own, so the news can come late): the log writes
 * the belief as begun, and must write its end too. Found by
 * {@code ShardSetAcceptanceTest.aRollingRestartOfEveryReplicaNeverHasTwoOwnersOfAShard}, which
 * failed about one run in six: roll-c's log had an {@code own} line for roll-shard-11 and never
 * a {@code free} one, so the checker saw roll-c owning it while roll-b did. A look that took
 * its snapshot of what it had seen before the listener's news, and waited for the lock while
 * the news was written, put its stale "not owned" back over the news.
 */
class OwnershipLogLateListenerTest {

    private static final String KEY = "late-listener-k";

    @Test
    void aBeginningToldWhileALookWaitsForTheKeyIsEndedByTheNextLook() throws Exception {
        AtomicBoolean holdTheNews = new AtomicBoolean(true);
        AtomicLong looks = new AtomicLong();
        List<String> lines = new CopyOnWriteArrayList<>() {
            @Override
            public boolean add(String line) {
                boolean added = super.add(line);
                if (line.contains(" own ") && holdTheNews.getAndSet(false)) {
                    // The listener's news is being written: hold it until a look waits for this key.
                    Polling.until(Duration.ofSeconds(5), "a look waiting for the key", () -> samplerState(),
                            state -> state == Thread.State.BLOCKED);
                }
                return added;
            }
        };
        OwnershipLog log = OwnershipLog.inMemory("late-1", lines);
        // The shard set let the key go before its listener was told it had it.
        log.watch(KEY, "h", Optional::empty);
        log.watch("late-listener-counter", "h", () -> {
            looks.incrementAndGet();
            return Optional.empty();
        });

        log.began(KEY, "h", new Tenure(new LeaseKey(KEY), new HolderId("h"), new Fence(7), new Fence(7),
                System.nanoTime() + Duration.ofSeconds(60).toNanos()));
        long after = looks.get();
        Polling.until(Duration.ofSeconds(5), "two more looks", looks::get, seen -> seen >= after + 2);
        log.close();

        List<String> kinds = lines.stream().filter(line -> line.contains(" " + KEY + " "))
                .map(line -> line.split(" ")[4]).collect(Collectors.toList());
        assertEquals(List.of("own", "free"), kinds, "every line about the key: " + lines);
    }

    /**
     * The other way round: the holder stops owning and its listener's {@code stoppedOwning}
     * comes while a look is writing the belief down. The end must be written all the same.
     */
    @Test
    void anEndToldWhileALookWritesTheBeliefIsWritten() throws Exception {
        AtomicReference<Optional<Tenure>> belief = new AtomicReference<>(Optional.empty());
        AtomicReference<Thread> listener = new AtomicReference<>();
        AtomicReference<OwnershipLog> logged = new AtomicReference<>();
        List<String> lines = new CopyOnWriteArrayList<>() {
            @Override
            public boolean add(String line) {
                boolean added = super.add(line);
                if (line.contains(" own ") && listener.get() == null) {
                    // While the look writes the belief, the holder stops and tells its listener.
                    Thread told = new Thread(() -> {
                        belief.set(Optional.empty());
                        logged.get().ended(KEY, "h");
                    }, "late-listener-stopped");
                    listener.set(told);
                    told.start();
                    Polling.until(Duration.ofSeconds(5), "the listener waiting for the key", told::getState,
                            state -> state == Thread.State.BLOCKED);
                }
                return added;
            }
        };
        OwnershipLog log = OwnershipLog.inMemory("late-2", lines);
        logged.set(log);
        log.watch(KEY, "h", belief::get);
        belief.set(Optional.of(new Tenure(new LeaseKey(KEY), new HolderId("h"), new Fence(7), new Fence(7),
                System.nanoTime() + Duration.ofSeconds(60).toNanos())));
        Polling.until(Duration.ofSeconds(5), "the listener told", listener::get, told -> told != null);
        listener.get().join(5_000);
        log.close();

        List<String> kinds = lines.stream().filter(line -> line.contains(" " + KEY + " "))
                .map(line -> line.split(" ")[4]).collect(Collectors.toList());
        assertEquals(List.of("own", "free"), kinds, "every line about the key: " + lines);
    }

    private static Thread.State samplerState() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().equals("ownership-log-late-1"))
                .findFirst().map(Thread::getState).orElse(Thread.State.TERMINATED);
    }
}
