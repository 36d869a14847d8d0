package io.dagnats.leases.acceptance.holder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.OwnershipHistory;
import io.dagnats.leases.acceptance.harness.OwnershipLog;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.acceptance.harness.ToldListener;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.KeptLease;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Slow user code in one key's callback must not cost another key of the same
 * {@link LeaseHolder} its ownership (issue 20, finding 3, the suspicion that every keeper and
 * listener callback of one holder share one scheduler thread, so one slow {@code becameOwner}
 * delays every renewal of that process). One holder keeps two keys at a 2 s TTL; key A's
 * first {@code becameOwner} works for two TTLs. Key B must stay owner throughout by its own record,
 * and its listener must never hear {@code stoppedOwning}.
 */
class HolderSlowListenerAcceptanceTest extends SharedServiceTest {

    private static final Duration TTL = Duration.ofSeconds(2);
    private static final Duration SLOW_CALLBACK = TTL.multipliedBy(2);

    @Test
    void aSlowBecameOwnerOfOneKeyCostsNoOtherKeyItsOwnership() throws Exception {
        String slowKey = "slow-listener-a";
        String otherKey = "slow-listener-b";
        List<String> slowTold = new CopyOnWriteArrayList<>();
        AtomicLong slowEntered = new AtomicLong();
        AtomicLong slowReturned = new AtomicLong();
        ToldListener otherTold = new ToldListener();
        List<String> lines = OwnershipLog.lines();
        try (Connection nats = Nats.connect(service.nats.url());
                LeaseHolder holder = LeaseHolder.builder(nats).holderPrefix("slow-listener").build();
                OwnershipLog log = OwnershipLog.inMemory("slow-listener", lines)) {
            KeptLease other = log.keep(otherKey, holder.id().value(), () -> holder.keep(otherKey, TTL, otherTold));
            Polling.until(Duration.ofSeconds(20), "B to be owned", other::isOwner, owner -> owner);

            holder.keep(slowKey, TTL, new OwnershipListener() {
                @Override
                public void becameOwner(Tenure tenure) {
                    // Only the first call is slow: a later one (A won again) returns at once, so B's
                    // renewals after it are not delayed by A once more.
                    if (!slowEntered.compareAndSet(0, System.nanoTime())) {
                        slowTold.add("A becameOwner again");
                        return;
                    }
                    slowTold.add("A becameOwner (working " + SLOW_CALLBACK.toMillis() + " ms)");
                    try {
                        // The simulated slow user code: a callback that takes two TTLs.
                        Thread.sleep(SLOW_CALLBACK.toMillis());
                    } catch (InterruptedException interrupted) {
                        Thread.currentThread().interrupt();
                    }
                    slowReturned.set(System.nanoTime());
                }

                @Override
                public void stoppedOwning(StopReason reason) {
                    slowTold.add("A stoppedOwning " + reason);
                }
            });
            Polling.until(SLOW_CALLBACK.plusSeconds(20), "A's slow becameOwner to return", slowReturned::get,
                    returned -> returned != 0);
            // B is renewed twice more after the slow callback, so a loss it caused has been told by then.
            long returned = slowReturned.get();
            Polling.until(TTL.multipliedBy(3), "B confirmed twice after A's callback returned",
                    () -> otherTold.told().stream().filter(one -> one.nanos() - returned > 0
                            && (one.what().equals("renewed") || one.what().equals("becameOwner"))).count(),
                    confirmed -> confirmed >= 2);

            String what = "A's becameOwner worked " + (slowReturned.get() - slowEntered.get()) / 1_000_000
                    + " ms; A's listener was told " + slowTold + "; B's " + otherTold.told() + "; B's own record "
                    + lines;
            assertTrue(slowReturned.get() - slowEntered.get() >= SLOW_CALLBACK.toNanos(), what);
            assertEquals(List.of(), otherTold.events().stream().filter(event -> event.startsWith("stopped:")).toList(),
                    "B never stopped owning: " + what);
            assertEquals(1, otherTold.count("becameOwner"), "B became owner once: " + what);
            assertEquals(List.of(), lines.stream().filter(line -> line.contains(" free ") || line.contains(" late "))
                    .toList(), "B's ownership unbroken by its own record: " + what);
            OwnershipHistory history = OwnershipHistory.fromLines(lines);
            history.assertSafe();
            assertEquals(1, history.windows().size(), "one window of B: " + history.windows() + "; " + what);
            assertTrue(other.isOwner(), "B still owned: " + what);
        }
    }
}
