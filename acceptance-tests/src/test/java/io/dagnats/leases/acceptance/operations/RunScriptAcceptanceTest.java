package io.dagnats.leases.acceptance.operations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's run command stopped as people stop it: Ctrl-C in the terminal
 * (SIGINT to the whole process group) or SIGTERM to the script. dagnats drains
 * first, answering the requests in flight, then the local nats-server stops,
 * and the script exits 0 without a warning.
 */
class RunScriptAcceptanceTest {

    private static final Duration START = Duration.ofSeconds(40);
    private static final Duration STOP = Duration.ofSeconds(20);
    private static final int FORWARDS = 6;
    private static final int OWNER_READS = 50;
    private static final String OWNER = "slow-owner";
    private static final Pattern NOISE = Pattern.compile(
            "WARN|SEVERE|Exception|\\tat |(?i:reconnect)|Terminated|Killed|Interrupt");

    @Test
    void ctrlCDrainsDagnatsThenStopsTheLocalServerAndExitsZero() throws Exception {
        stopsCleanly(RunScript::interruptGroup);
    }

    @Test
    void sigtermToTheScriptDrainsDagnatsThenStopsTheLocalServerAndExitsZero() throws Exception {
        stopsCleanly(RunScript::terminate);
    }

    @Test
    void aServiceThatCannotStartFailsTheScriptAndStopsTheLocalServer() throws Exception {
        try (RunScript run = RunScript.start(Map.of("DAGNATS_LEASE_REPLICA", "3"))) {
            assertEquals(2, run.awaitExit(START), run.output());
            assertTrue(run.output().contains("unknown setting DAGNATS_LEASE_REPLICA"), run.output());
            assertEquals(List.of(), run.leftOf(List.of()), "processes of the run left behind");
        }
    }

    private static void stopsCleanly(Consumer<RunScript> stop) throws Exception {
        try (RunScript run = RunScript.start(Map.of())) {
            run.awaitOutput(START, "serving api.leases.*");
            List<ProcessHandle> servers = run.servers();
            try (WireClient owner = new WireClient(run.natsUrl());
                    WireClient caller = new WireClient(run.natsUrl())) {
                String key = "run-sh-key";
                assertTrue(owner.acquire(key, OWNER, 60_000).path("granted").asBoolean());
                List<Message> held = new CopyOnWriteArrayList<>();
                Dispatcher inbox = owner.connection().createDispatcher(held::add);
                inbox.subscribe("dagnats.lease.inbox." + OWNER + ".>");
                owner.connection().flush(Duration.ofSeconds(5));

                List<CompletableFuture<JsonNode>> forwards = new ArrayList<>();
                for (int i = 0; i < FORWARDS; i++) {
                    forwards.add(caller.callAsync("forward", WireClient.object().put("key", key)
                            .put("payload", base64("ping-" + i)).put("timeout_ms", 20_000).toString()));
                }
                Polling.until(Duration.ofSeconds(10), "every forward held by the owner", held::size,
                        count -> count == FORWARDS);
                List<CompletableFuture<JsonNode>> reads = new ArrayList<>();
                for (int i = 0; i < OWNER_READS; i++) {
                    reads.add(caller.callAsync("owner", WireClient.object().put("key", key).toString()));
                }
                caller.connection().flush(Duration.ofSeconds(5));

                stop.accept(run);
                run.awaitOutput(STOP, "dagnats stopping");
                for (Message request : held) {
                    owner.connection().publish(request.getReplyTo(),
                            ("pong:" + new String(request.getData(), StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8));
                }
                owner.connection().flush(Duration.ofSeconds(5));

                for (int i = 0; i < FORWARDS; i++) {
                    JsonNode reply = forwards.get(i).get(10, TimeUnit.SECONDS);
                    assertEquals("pong:ping-" + i, decode(reply.path("payload").asText()), reply.toString());
                    assertEquals(OWNER, reply.path("holder").asText(), reply.toString());
                }
                for (CompletableFuture<JsonNode> read : reads) {
                    JsonNode reply = read.get(10, TimeUnit.SECONDS);
                    assertEquals(OWNER, reply.path("holder").asText(), reply.toString());
                }
            }
            assertEquals(0, run.awaitExit(STOP), run.output());
            String output = run.output();
            assertEquals(List.of(), output.lines().filter(line -> NOISE.matcher(line).find()).toList(), output);
            assertTrue(output.contains("dagnats stopped"), output);
            assertEquals(List.of(), run.leftOf(servers), "processes of the run left behind");
        }
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String decode(String base64) {
        return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
    }
}
