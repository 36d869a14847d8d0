package io.dagnats.leases.acceptance.holder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.OwnershipHistory;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.Reliability;
import io.dagnats.leases.acceptance.harness.ReplicaProcesses;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Holders as real processes: stopped with SIGSTOP, killed with SIGKILL. Each
 * records when it believed it owned the key; {@link OwnershipHistory} fails on
 * any overlap between two of them.
 */
class HolderProcessFaultsAcceptanceTest {

    private static final long TTL_MS = 2_000;

    private ServiceFixture service;
    private WireClient client;
    private ReplicaProcesses replicas;
    private final FencedSink sink = new FencedSink();
    private final List<String> refusedWriters = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() {
        service = ServiceFixture.start();
        client = service.client;
        replicas = new ReplicaProcesses(service.nats.url());
        Dispatcher sinkService = client.connection().createDispatcher(request -> {
            String[] parts = new String(request.getData(), StandardCharsets.UTF_8).split(" ");
            boolean accepted = sink.write(Long.parseLong(parts[0]), parts[1], "work");
            if (!accepted) {
                refusedWriters.add(parts[1]);
            }
            client.connection().publish(request.getReplyTo(), (accepted ? "ok" : "refused").getBytes(StandardCharsets.UTF_8));
        });
        sinkService.subscribe("test.sink.>");
    }

    @AfterEach
    void stop() throws Exception {
        replicas.close();
        service.close();
    }

    private Process replica(String name, String key) {
        return replicas.start(name, key, Duration.ofMillis(TTL_MS));
    }

    private JsonNode owner(String key) {
        return Polling.until(Duration.ofSeconds(30), "a held " + key, () -> client.owner(key),
                reply -> reply.path("held").asBoolean());
    }

    @Test
    void aHolderStoppedLongerThanItsTtlIsReplacedAndOnWakingIsRejectedAndFenced() throws Exception {
        Process sleeper = replica("sleeper", "stopped-key");
        JsonNode sleepers = owner("stopped-key");
        Polling.until(Duration.ofSeconds(10), "the sleeper's first write", sink::accepted, writes -> !writes.isEmpty());
        // It is now a second into its next unit of work, holding its fence: freeze it there.
        ReplicaProcesses.signal(sleeper, "STOP");
        Process successor = replica("successor", "stopped-key");
        JsonNode successors = Polling.until(Duration.ofSeconds(TTL_MS / 1000 + 10), "the successor to take over",
                () -> client.owner("stopped-key"), reply -> reply.path("holder").asText().startsWith("successor"));
        assertTrue(successors.path("revision").asLong() > sleepers.path("revision").asLong());
        Polling.until(Duration.ofSeconds(10), "the successor's write",
                sink::accepted, writes -> writes.stream().anyMatch(write -> write.writer().startsWith("successor")));

        ReplicaProcesses.signal(sleeper, "CONT");

        Polling.until(Duration.ofSeconds(10), "the sleeper's stale write to be refused",
                () -> refusedWriters, refused -> refused.stream().anyMatch(writer -> writer.startsWith("sleeper")));
        // Safety is judged from what each process believed, not from the sink that fenced it.
        OwnershipHistory history = replicas.history();
        String summary = history.assertSafe();
        assertTrue(history.windows().stream().anyMatch(window -> window.holder().startsWith("sleeper"))
                && history.windows().stream().anyMatch(window -> window.holder().startsWith("successor")),
                "both believed they owned the key, one after the other: " + history.windows());
        Reliability.report("holder SIGSTOP'd past its TTL (" + TTL_MS + " ms), then woken", summary);
        Headers late = new Headers();
        late.put("Dagnats-Lease-Fence", sleepers.path("revision").asText());
        Message rejected = client.connection().request(NatsMessage.builder()
                // As dagnats sent it while the sleeper held the key: to the sleeper's incarnation.
                .subject("dagnats.lease.incarnation." + sleepers.path("holder").asText() + "."
                        + sleepers.path("incarnation").asText() + ".stopped-key")
                .headers(late).data(new byte[0]).build(), Duration.ofSeconds(5));
        assertEquals("stale", rejected.getHeaders().getFirst("Dagnats-Lease-Reject"));
        JsonNode forwarded = client.call("forward", "{\"key\":\"stopped-key\",\"payload\":\"\"}");
        assertEquals(successors.path("holder"), forwarded.path("holder"), forwarded.toString());
        assertTrue(sink.accepted().stream().noneMatch(write -> write.writer().startsWith("sleeper")
                && write.fence() >= successors.path("revision").asLong()));
        assertTrue(successor.isAlive());
    }

    @Test
    void failoverAfterAHolderProcessIsKilledTakesAboutOneTtl() throws Exception {
        List<Long> failoverMillis = new ArrayList<>();
        Process standby = replica("standby", "failover-key");
        for (int run = 0; run < 5; run++) {
            Process leader = replica("leader" + run, "failover-key");
            if (run == 0) {
                Polling.until(Duration.ofSeconds(30), "the first leader",
                        () -> client.owner("failover-key"), reply -> reply.path("holder").asText().startsWith("leader0")
                                || reply.path("holder").asText().startsWith("standby"));
            }
            JsonNode current = owner("failover-key");
            if (current.path("holder").asText().startsWith("standby")) {
                // Make the fresh replica the leader: stop the standby's process and start another.
                standby.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                current = Polling.until(Duration.ofSeconds(30), "leader" + run + " to lead",
                        () -> client.owner("failover-key"), reply -> reply.path("holder").asText().startsWith("leader"));
                standby = replica("standby", "failover-key");
            }
            String dead = current.path("holder").asText();
            long killed = System.nanoTime();
            leader.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            Polling.until(Duration.ofMillis(TTL_MS + 10_000), "another holder after killing " + dead,
                    () -> client.owner("failover-key"), reply -> reply.path("held").asBoolean()
                            && !reply.path("holder").asText().equals(dead));
            failoverMillis.add((System.nanoTime() - killed) / 1_000_000);
        }
        List<Long> sorted = new ArrayList<>(failoverMillis);
        sorted.sort(Long::compare);
        Reliability.report("holder failover (kill -9 to next grant, TTL " + TTL_MS + " ms, " + sorted.size() + " runs)",
                "median " + sorted.get(sorted.size() / 2) + " ms, max " + sorted.get(sorted.size() - 1) + " ms, all "
                        + failoverMillis);
        assertFalse(sorted.isEmpty());
        assertTrue(sorted.get(sorted.size() - 1) <= TTL_MS + 2_000, "failover took " + sorted);
    }
}
