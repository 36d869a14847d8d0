package io.dagnats.leases.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.holder.KeptLease;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Test;

/**
 * Review (edge 3, with edge 1's fault): a process restarted under its own fixed holder id
 * while the old process is paused, then resumed. The inbox subject names only the holder id,
 * so both processes receive every forward on plain core subscriptions, and each judges the
 * fence against its own tenure. A forward must be processed by one process at most.
 */
class ReviewSameIdForwardAcceptanceTest extends SharedServiceTest {

    private static final Duration TTL = Duration.ofSeconds(3);
    private static final String HOLDER = "review-same-id";

    /**
     * The same fault, seen through forward (edge 3): the inbox subject names the holder id, so
     * both processes receive every forward (plain core subscriptions), and each judges the fence
     * against its own tenure. A forward must be processed by one process at most.
     */
    @Test
    void aForwardIsNeverProcessedByBothThePausedOldProcessAndItsRestartedSuccessor() throws Exception {
        String key = "review-same-id-forward";
        ScheduledExecutorService pausable = Executors.newSingleThreadScheduledExecutor();
        java.util.Map<String, java.util.Set<String>> processedBy = new java.util.concurrent.ConcurrentHashMap<>();
        try (Connection oldNats = Nats.connect(service.nats.url());
                Connection newNats = Nats.connect(service.nats.url());
                LeaseHolder old = LeaseHolder.builder(oldNats).holderId(HOLDER + "-f").scheduler(pausable)
                        .forwardHandler((tenure, payload) -> record(processedBy, payload, "old"))
                        .build()) {
            KeptLease oldLease = old.keep(key, TTL, OwnershipListener.NONE);
            Polling.until(Duration.ofSeconds(20), "the old process to own", oldLease::isOwner, owner -> owner);

            CountDownLatch wake = SchedulerPause.block(pausable);
            try (LeaseHolder restarted = LeaseHolder.builder(newNats).holderId(HOLDER + "-f")
                    .forwardHandler((tenure, payload) -> record(processedBy, payload, "new")).build()) {
                KeptLease newLease = restarted.keep(key, TTL, OwnershipListener.NONE);
                Polling.until(Duration.ofSeconds(20), "the restarted process to own", newLease::isOwner, owner -> owner);
                wake.countDown();

                // One forward every 50 ms for three TTLs, each with a payload of its own.
                long end = System.nanoTime() + TTL.multipliedBy(3).toNanos();
                int sent = 0;
                List<String> answers = new ArrayList<>();
                while (System.nanoTime() < end) {
                    String id = "req-" + sent++;
                    String b64 = java.util.Base64.getEncoder().encodeToString(id.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    com.fasterxml.jackson.databind.JsonNode reply = client.call("forward",
                            "{\"key\":\"" + key + "\",\"payload\":\"" + b64 + "\",\"timeout_ms\":2000}");
                    if (answers.size() < 5) {
                        answers.add(id + " -> " + reply);
                    }
                    Polling.pause();
                }
                // Let handlers admitted late finish.
                Polling.until(Duration.ofSeconds(5), "the handlers to settle", () -> processedBy.size(), n -> true);
                List<String> twice = processedBy.entrySet().stream().filter(e -> e.getValue().size() > 1)
                        .map(e -> e.getKey() + " by " + e.getValue()).sorted().toList();
                assertEquals(List.of(), twice, twice.size() + " of " + sent + " forwards were processed by BOTH processes"
                        + " (" + processedBy.size() + " processed at all); first answers: " + answers);
            } finally {
                wake.countDown();
            }
        } finally {
            pausable.shutdownNow();
        }
    }

    private static byte[] record(java.util.Map<String, java.util.Set<String>> processedBy, byte[] payload, String who) {
        processedBy.computeIfAbsent(new String(payload, java.nio.charset.StandardCharsets.UTF_8),
                ignored -> java.util.concurrent.ConcurrentHashMap.newKeySet()).add(who);
        return who.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
