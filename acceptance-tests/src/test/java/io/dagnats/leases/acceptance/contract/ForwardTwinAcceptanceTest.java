package io.dagnats.leases.acceptance.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.OwnershipHistory;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.ReplicaProcesses;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.nats.client.Dispatcher;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Two live processes under one fixed holder id (issue 20, finding 1): the owner is stopped
 * with SIGSTOP just after one of its renews, a second process starts under the same id and
 * comes to own the key, and the first is resumed half a second later. The inbox subject names
 * only the holder id, so both receive every forward. Forwards go every 100 ms to a handler that
 * works 20 ms. Judged from the forwarding client's answers and from what each process wrote
 * down itself (each request its handler entered; when it believed it owned the key), never
 * from the service's own bookkeeping:
 *
 * <ul>
 *   <li>no forward answered {@code owner_rejected}, {@code owner_unavailable} or {@code no_owner}
 *       was processed (those kinds promise it was not);</li>
 *   <li>no forward was processed twice;</li>
 *   <li>no forward was served under a fence below one already served;</li>
 *   <li>the two processes' ownership windows never overlap.</li>
 * </ul>
 */
class ForwardTwinAcceptanceTest extends SharedServiceTest {

    private static final Duration TTL = Duration.ofSeconds(3);
    private static final Duration HANDLER_WORK = Duration.ofMillis(20);
    private static final Duration FORWARD_EVERY = Duration.ofMillis(100);
    private static final Duration RESUME_AFTER_TAKEOVER = Duration.ofMillis(500);
    /** Forwards answered after the resume before the run ends: 3 TTLs' worth at one per 100 ms. */
    private static final int FORWARDS_AFTER_RESUME = 30;
    /** The kinds that say the owner did not process the request (wire-protocol.md, "Forward"). */
    private static final Set<String> NOT_PROCESSED = Set.of("owner_rejected", "owner_unavailable", "no_owner");

    @Test
    void aForwardAnsweredAsNotProcessedWasNeverProcessedAndNoneTwiceWhenOneIdRunsInTwoProcesses() throws Exception {
        String key = "forward-twin";
        String holder = "forward-twin";
        Map<String, CompletableFuture<JsonNode>> answers = new ConcurrentHashMap<>();
        AtomicInteger sent = new AtomicInteger();
        ScheduledExecutorService forwarder = Executors.newSingleThreadScheduledExecutor();
        // The replicas' downstream "work" writes go to a sink that takes them all: no fencing is judged here.
        Dispatcher sink = client.connection().createDispatcher(
                write -> client.connection().publish(write.getReplyTo(), "ok".getBytes(StandardCharsets.UTF_8)));
        sink.subscribe("test.sink." + key);
        try (ReplicaProcesses replicas = new ReplicaProcesses(service.nats.url())) {
            Process first = replicas.start(holder, key, TTL, "exact", "handle=" + HANDLER_WORK.toMillis());
            Polling.until(Duration.ofSeconds(30), "the first process to believe it owns " + key,
                    () -> replicas.believesOwner(first, key), owner -> owner);
            forwarder.scheduleAtFixedRate(() -> {
                String id = "req-" + sent.getAndIncrement();
                String payload = Base64.getEncoder().encodeToString(id.getBytes(StandardCharsets.UTF_8));
                answers.put(id, client.callAsync("forward",
                        "{\"key\":\"" + key + "\",\"payload\":\"" + payload + "\",\"timeout_ms\":1000}"));
            }, 0, FORWARD_EVERY.toMillis(), TimeUnit.MILLISECONDS);

            // Stop the owner just after one of its renews: the server's revision moves past the one it had.
            long before = client.owner(key).path("revision").asLong();
            Polling.until(Duration.ofSeconds(10), "a renew by the first process", () -> client.owner(key),
                    lease -> lease.path("revision").asLong() > before && holder.equals(lease.path("holder").asText()));
            ReplicaProcesses.signal(first, "STOP");

            Process second = replicas.start(holder, key, TTL, "exact", "handle=" + HANDLER_WORK.toMillis());
            // It may own at once (one holder to the server) or only after the paused process's lease expired.
            Polling.until(TTL.multipliedBy(6).plusSeconds(10), "the second process to believe it owns " + key,
                    () -> replicas.believesOwner(second, key), owner -> owner);
            // The fault's schedule: the paused process wakes half a second into the other's ownership.
            LockSupport.parkNanos(RESUME_AFTER_TAKEOVER.toNanos());
            ReplicaProcesses.signal(first, "CONT");
            int resumedAt = sent.get();

            Polling.until(Duration.ofSeconds(30), FORWARDS_AFTER_RESUME + " forwards sent after the resume answered",
                    () -> answeredFrom(answers, resumedAt), answered -> answered >= FORWARDS_AFTER_RESUME);
            forwarder.shutdown();
            assertTrue(forwarder.awaitTermination(5, TimeUnit.SECONDS), "the forwarder stops");
            Polling.until(Duration.ofSeconds(15), "every forward answered", () -> answers.values().stream()
                    .filter(answer -> !answer.isDone()).count(), open -> open == 0);
            // Both processes are stopped for good before their records are read, so no handler still writes.
            ReplicaProcesses.kill(first);
            ReplicaProcesses.kill(second);

            Map<String, String> kinds = new TreeMap<>();
            answers.forEach((id, answer) -> kinds.put(id, answer.handle(ForwardTwinAcceptanceTest::kindOf).join()));
            // A line cut short by the kill names no request that was answered as processed or not.
            List<Processed> processed = replicas.processedForwards().stream()
                    .filter(line -> line.trim().split(" ").length == 5).map(Processed::parse)
                    .sorted(Comparator.comparingLong(Processed::nanos)).toList();
            List<String> problems = new ArrayList<>();

            Map<String, List<Processed>> byRequest = processed.stream()
                    .collect(Collectors.groupingBy(Processed::request, TreeMap::new, Collectors.toList()));
            List<String> processedAfterNo = byRequest.entrySet().stream()
                    .filter(entry -> NOT_PROCESSED.contains(kinds.get(entry.getKey())))
                    .map(entry -> entry.getKey() + " answered " + kinds.get(entry.getKey()) + " but processed by "
                            + entry.getValue().stream().map(Processed::incarnation).toList())
                    .toList();
            if (!processedAfterNo.isEmpty()) {
                problems.add(processedAfterNo.size() + " forwards answered as not processed were processed: "
                        + first(processedAfterNo));
            }
            List<String> twice = byRequest.entrySet().stream().filter(entry -> entry.getValue().size() > 1)
                    .map(entry -> entry.getKey() + " by "
                            + entry.getValue().stream().map(Processed::incarnation).toList())
                    .toList();
            if (!twice.isEmpty()) {
                problems.add(twice.size() + " forwards were processed twice: " + first(twice));
            }
            List<String> belowServed = new ArrayList<>();
            Processed highest = null;
            for (Processed one : processed) {
                if (highest != null && one.fence() < highest.fence()) {
                    belowServed.add(one + " after " + highest);
                }
                if (highest == null || one.fence() > highest.fence()) {
                    highest = one;
                }
            }
            if (!belowServed.isEmpty()) {
                problems.add(belowServed.size() + " forwards were served under a fence below one already served: "
                        + first(belowServed));
            }
            OwnershipHistory history = replicas.history();
            try {
                history.assertNoTwoProcessesAtOnce();
                history.assertSafe();
            } catch (AssertionError unsafe) {
                problems.add(unsafe.getMessage());
            }

            Map<String, Long> kindCounts = kinds.values().stream()
                    .collect(Collectors.groupingBy(kind -> kind, TreeMap::new, Collectors.counting()));
            String what = sent.get() + " forwards (" + kindCounts + "), " + processed.size() + " processings by "
                    + processed.stream().collect(Collectors.groupingBy(Processed::incarnation, TreeMap::new,
                            Collectors.counting()))
                    + "; ownership windows " + history.windows();
            assertEquals(List.of(), problems, what);
            // The run proves something only if the key was served after the resume.
            assertTrue(processed.stream().anyMatch(one -> number(one.request()) >= resumedAt),
                    "no forward served after the resume: " + what);
        } finally {
            forwarder.shutdownNow();
            client.connection().closeDispatcher(sink);
        }
    }

    /** How many forwards numbered {@code from} and later have their answer. */
    private static long answeredFrom(Map<String, CompletableFuture<JsonNode>> answers, int from) {
        return answers.entrySet().stream()
                .filter(entry -> number(entry.getKey()) >= from && entry.getValue().isDone())
                .count();
    }

    private static int number(String request) {
        return Integer.parseInt(request.substring("req-".length()));
    }

    /** The answer's wire kind: {@code served} for the owner's reply, {@code no-answer} when the call failed. */
    private static String kindOf(JsonNode answer, Throwable failed) {
        if (failed != null) {
            return "no-answer";
        }
        return answer.has("kind") ? answer.path("kind").asText() : "served";
    }

    private static List<String> first(List<String> all) {
        return all.subList(0, Math.min(5, all.size()));
    }

    /** One request a replica's handler entered, as it wrote it down. */
    private record Processed(long nanos, String incarnation, String request, long tenureStart, long fence) {
        static Processed parse(String line) {
            String[] fields = line.trim().split(" ");
            return new Processed(Long.parseLong(fields[0]), fields[1], fields[2], Long.parseLong(fields[3]),
                    Long.parseLong(fields[4]));
        }

        @Override
        public String toString() {
            return request + " by " + incarnation + " under fence " + fence + " (tenure " + tenureStart + ")";
        }
    }
}
