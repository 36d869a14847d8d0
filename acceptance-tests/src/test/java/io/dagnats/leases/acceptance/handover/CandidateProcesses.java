package io.dagnats.leases.acceptance.handover;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.ReplicaProcesses;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import io.nats.client.Dispatcher;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A real nats-server and dagnats, and candidate replica processes ({@code ReplicaMain candidacy=}),
 * with what each told the test on {@code test.replica.>}: {@code candidate <holder> <version>},
 * {@code owner <holder> ...}, {@code stopped <reason> <holder>}.
 */
final class CandidateProcesses implements AutoCloseable {

    final ServiceFixture service;
    final ReplicaProcesses replicas;
    final List<String> told = new CopyOnWriteArrayList<>();
    private final Duration ttl;

    CandidateProcesses(Duration ttl) {
        this.ttl = ttl;
        this.service = ServiceFixture.start();
        this.replicas = new ReplicaProcesses(service.nats.url());
        Dispatcher replies = service.client.connection().createDispatcher(
                message -> told.add(new String(message.getData(), StandardCharsets.UTF_8)));
        replies.subscribe("test.replica.>");
    }

    /** Starts a candidate and returns once it answers as one ({@code candidacy} is {@code <priority>:<version>}). */
    Process candidate(String name, String key, String candidacy, String succession, String brakes) {
        int before = count("candidate " + name + "-");
        Process process = replicas.start(name, key, ttl, "candidacy=" + candidacy, "succession=" + succession,
                "brakes=" + brakes);
        Polling.until(Duration.ofSeconds(60), name + " to stand", () -> count("candidate " + name + "-"),
                now -> now > before);
        return process;
    }

    int count(String prefix) {
        return (int) told.stream().filter(line -> line.startsWith(prefix)).count();
    }

    JsonNode ownerStartingWith(String key, String prefix) {
        return Polling.until(Duration.ofSeconds(30), key + " held by " + prefix, () -> service.client.owner(key),
                reply -> reply.path("held").asBoolean() && reply.path("holder").asText().startsWith(prefix));
    }

    /**
     * Until a process named {@code name} says it owns the key: dagnats names a successor as soon as
     * the handover is written, the successor owns only after its own renew.
     */
    void believesOwner(String name) {
        Polling.until(Duration.ofSeconds(30), name + " to believe it owns", () -> count("owner " + name + "-"),
                owners -> owners > 0);
    }

    /** SIGTERM, as a rolling restart stops a pod: the replica closes its holder and exits. */
    static void terminate(Process process) throws InterruptedException {
        ReplicaProcesses.signal(process, "TERM");
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "a SIGTERM'd replica exits");
    }

    @Override
    public void close() throws Exception {
        replicas.close();
        service.close();
    }
}
