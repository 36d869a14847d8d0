package io.dagnats.leases.acceptance.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A caller that knows only the wire contract: NATS request/reply with JSON
 * bodies, as a user's service in any language would call dagnats.
 */
public final class WireClient implements AutoCloseable {

    public static final ObjectMapper JSON = new ObjectMapper();

    private final Connection connection;

    public WireClient(String url) {
        this(new Options.Builder().server(url).build());
    }

    /** A caller with credentials of its own (a user of an account, ADR-036). */
    public WireClient(Options options) {
        try {
            this.connection = Nats.connect(options);
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(interrupted);
        }
    }

    public Connection connection() {
        return connection;
    }

    public JsonNode call(String operation, String body) {
        return callAsync(operation, body).join();
    }

    public JsonNode call(String operation, ObjectNode body) {
        return call(operation, body.toString());
    }

    public CompletableFuture<JsonNode> callAsync(String operation, String body) {
        return connection.requestWithTimeout("api.leases." + operation, body.getBytes(StandardCharsets.UTF_8),
                        Duration.ofSeconds(10))
                .thenApply(WireClient::parse);
    }

    public JsonNode acquire(String key, String holder, long ttlMillis) {
        return call("acquire", object().put("key", key).put("holder", holder).put("ttl_ms", ttlMillis));
    }

    public JsonNode renew(String key, String holder, long revision) {
        return call("renew", object().put("key", key).put("holder", holder).put("revision", revision));
    }

    public JsonNode release(String key, String holder, long revision) {
        return call("release", object().put("key", key).put("holder", holder).put("revision", revision));
    }

    public JsonNode owner(String key) {
        return call("owner", object().put("key", key));
    }

    public JsonNode revoke(String key, String reason) {
        return call("revoke", object().put("key", key).put("reason", reason));
    }

    public JsonNode revoke(String key, String reason, long revision) {
        return call("revoke", object().put("key", key).put("reason", reason).put("revision", revision));
    }

    public static ObjectNode object() {
        return JSON.createObjectNode();
    }

    /** {@code text} read as JSON; a test fails, naming the text, when it is not. */
    public static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException notJson) {
            throw new AssertionError("not JSON: " + text, notJson);
        }
    }

    public static JsonNode parse(Message reply) {
        try {
            return JSON.readTree(reply.getData());
        } catch (IOException notJson) {
            throw new AssertionError("reply is not JSON: " + new String(reply.getData(), StandardCharsets.UTF_8), notJson);
        }
    }

    @Override
    public void close() throws InterruptedException {
        connection.close();
    }
}
