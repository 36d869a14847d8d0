package io.dagnats.leases.acceptance.contract;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.MessageHandler;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * Owners that are plain NATS subscriptions on the shared service, and forwards to them. A base class so that the tests, split by the rule they prove, moved without being rewritten.
 */
abstract class ForwardOwners extends SharedServiceTest {

    static WireClient owners;
    final List<Dispatcher> dispatchers = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void startOwners() {
        owners = new WireClient(service.nats.url());
    }

    @AfterAll
    static void stopOwners() throws InterruptedException {
        owners.close();
    }

    @AfterEach
    void unsubscribeOwners() {
        dispatchers.forEach(dispatcher -> owners.connection().closeDispatcher(dispatcher));
    }

    static String key() {
        return "fwd-" + UUID.randomUUID();
    }

    List<Message> serve(String holder, MessageHandler handler) throws Exception {
        List<Message> seen = new CopyOnWriteArrayList<>();
        Dispatcher dispatcher = owners.connection().createDispatcher(message -> {
            seen.add(message);
            handler.onMessage(message);
        });
        dispatcher.subscribe("dagnats.lease.inbox." + holder + ".>");
        dispatchers.add(dispatcher);
        owners.connection().flush(Duration.ofSeconds(5));
        return seen;
    }

    static void reply(Message request, byte[] body) {
        owners.connection().publish(request.getReplyTo(), body);
    }

    static JsonNode forward(String key, byte[] payload, long timeoutMillis) {
        return client.call("forward", WireClient.object().put("key", key)
                .put("payload", Base64.getEncoder().encodeToString(payload)).put("timeout_ms", timeoutMillis));
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static void reject(Message request) {
        Headers headers = new Headers();
        headers.put("Dagnats-Lease-Reject", "stale");
        Connection connection = owners.connection();
        connection.publish(NatsMessage.builder().subject(request.getReplyTo()).headers(headers).data(new byte[0]).build());
    }
}
