package io.dagnats.leases.acceptance.holder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.CliProcess;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.acceptance.harness.ToldListener;
import io.dagnats.leases.holder.KeptLease;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.protocol.LeaseHeaders;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Subscription;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A revoke names who revoked (ADR-041): the CLI sends {@code --by}, or {@code $USER@hostname}
 * without it; the revoke write, and so its change event, carries it in
 * {@code Dagnats-Lease-Revoked-By}; and the revoked holder's log line names that person instead of
 * "an operator", so whoever reads it knows whom to ask.
 */
class RevokerNamedAcceptanceTest extends SharedServiceTest {

    private static final String REASON = "moving the job to eu-west";

    @Test
    void aRevokeWithByNamesThatRevokerInTheEventAndInTheRevokedHoldersLog() throws Exception {
        revokeWithTheCliAndExpect("revoker-by", Map.of(), List.of("--by", "alice@ops-1"), "alice@ops-1");
    }

    @Test
    void withoutByTheCliNamesTheUserAndHostItRunsAs() throws Exception {
        revokeWithTheCliAndExpect("revoker-default", Map.of("USER", "bob", "HOSTNAME", "build-7"), List.of(),
                "bob@build-7");
    }

    /**
     * A service older than ADR-041 refuses {@code by} as an unknown field and writes nothing: the CLI
     * sends the revoke again without it. Played by a responder on the revoke subject that answers as
     * that service did.
     */
    @Test
    void againstAServiceThatDoesNotKnowByTheCliRevokesWithoutIt() throws Exception {
        List<String> bodies = new CopyOnWriteArrayList<>();
        try (NatsServerProcess nats = NatsServerProcess.modern(); Connection olderService = Nats.connect(nats.url())) {
            Dispatcher dispatcher = olderService.createDispatcher(request -> {
                String body = new String(request.getData(), StandardCharsets.UTF_8);
                bodies.add(body);
                String reply = body.contains("\"by\"")
                        ? "{\"error\":\"unknown field \\\"by\\\"\",\"kind\":\"invalid\"}"
                        : "{\"revoked\":false,\"held\":false,\"key\":\"older\"}";
                olderService.publish(request.getReplyTo(), reply.getBytes(StandardCharsets.UTF_8));
            });
            dispatcher.subscribe("api.leases.revoke");
            olderService.flush(Duration.ofSeconds(5));

            CliProcess.Result revoked = CliProcess.run(Map.of("NATS_URL", nats.url()), "leases", "revoke", "older",
                    "--reason", REASON, "--by", "alice@ops-1");

            assertEquals(0, revoked.exitCode(), revoked.toString());
            assertTrue(revoked.out().contains("older is free"), revoked.toString());
            assertEquals(2, bodies.size(), bodies.toString());
            assertTrue(bodies.get(0).contains("\"by\":\"alice@ops-1\"") && !bodies.get(1).contains("\"by\""),
                    bodies.toString());
        }
    }

    private static void revokeWithTheCliAndExpect(String key, Map<String, String> environment, List<String> options,
            String revoker) throws Exception {
        // Renewals every 20 s: a stop within seconds of the revoke comes from its event.
        Duration ttl = Duration.ofSeconds(60);
        try (HolderLogLines lines = new HolderLogLines();
                Connection watcher = Nats.connect(service.nats.url());
                Connection connection = Nats.connect(service.nats.url())) {
            Subscription changes = watcher.subscribe(LeaseSubjects.CHANGED_PREFIX + key);
            watcher.flush(Duration.ofSeconds(5));
            LeaseHolder holder = LeaseHolder.builder(connection).holderPrefix("revoked").build();
            try {
                ToldListener told = new ToldListener();
                KeptLease lease = holder.keep(key, ttl, told);
                Polling.until(Duration.ofSeconds(10), "the holder to own " + key, lease::isOwner, isOwner -> isOwner);

                Map<String, String> cliEnvironment = new HashMap<>(environment);
                cliEnvironment.put("NATS_URL", service.nats.url());
                List<String> args = new ArrayList<>(List.of("leases", "revoke", key, "--reason", REASON));
                args.addAll(options);
                CliProcess.Result revoked = CliProcess.run(cliEnvironment, args.toArray(String[]::new));
                assertEquals(0, revoked.exitCode(), revoked.toString());

                Message event = revokedEvent(changes);
                assertEquals(revoker, event.getHeaders().getFirst(LeaseHeaders.REVOKED_BY), event.getHeaders().toString());
                String revision = event.getHeaders().getFirst("Nats-Sequence");

                Polling.until(Duration.ofSeconds(3), "the revoked owner to stop on the event", told::events,
                        events -> events.contains("stopped:REVOKED"));
                String expected = "lease " + key + " revoked by " + revoker + " at revision " + revision + ": "
                        + REASON + "; this process (holder " + holder.id() + ") stops acting as owner";
                List<String> logged = Polling.until(Duration.ofSeconds(3), "the holder's revoked line",
                        () -> lines.containing("lease " + key + " revoked"), found -> !found.isEmpty());
                assertEquals(List.of(expected), logged, String.join("\n", lines.all()));
                assertTrue(lines.containing(" by an operator").isEmpty(), String.join("\n", lines.all()));
            } finally {
                holder.close();
            }
        }
    }

    /** The key's revoked event, skipping its acquired and renewed ones; within ten seconds. */
    private static Message revokedEvent(Subscription changes) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        List<String> seen = new ArrayList<>();
        while (System.nanoTime() < deadline) {
            Message event = changes.nextMessage(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            if (event == null) {
                break;
            }
            String kind = event.getHeaders() == null ? null : event.getHeaders().getFirst(LeaseHeaders.EVENT);
            if ("revoked".equals(kind)) {
                return event;
            }
            seen.add(String.valueOf(kind));
        }
        throw new AssertionError("no revoked event within 10 s; saw " + seen);
    }
}
