package io.dagnats.leases.holder;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.nats.client.Connection;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.nats.client.Message;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Typed calls to the five lease subjects over a NATS connection you own.
 * Every call is asynchronous; normal answers are values ({@link Answers}),
 * and a stage fails only with {@link DagnatsException}.
 */
public final class LeaseClient implements LeaseCalls {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Added to a forward's own timeout so dagnats' answer, not ours, reports an owner timeout. */
    private static final Duration FORWARD_MARGIN = Duration.ofSeconds(1);

    private final Connection connection;
    private final Duration requestTimeout;
    private final HolderTelemetry telemetry;

    /**
     * @param requestTimeout how long to wait for dagnats' answer (not for forwards, see {@link #forward})
     * @param openTelemetry  where the client spans of these calls go; {@link OpenTelemetry#noop()} for none
     */
    public LeaseClient(Connection connection, Duration requestTimeout, OpenTelemetry openTelemetry) {
        this(connection, requestTimeout, new HolderTelemetry(openTelemetry, List::of));
    }

    public LeaseClient(Connection connection) {
        this(connection, Duration.ofSeconds(5), OpenTelemetry.noop());
    }

    LeaseClient(Connection connection, Duration requestTimeout, HolderTelemetry telemetry) {
        this.connection = Objects.requireNonNull(connection, "connection");
        this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
        this.telemetry = Objects.requireNonNull(telemetry, "telemetry");
    }

    @Override
    public CompletableFuture<Answers.Acquire> acquire(LeaseKey key, HolderId holder, LeaseTtl ttl) {
        ObjectNode body = body(key).put("holder", holder.value()).put("ttl_ms", ttl.millis());
        return call("acquire", body, requestTimeout, reply -> {
            LeaseView lease = view(reply);
            return reply.path("granted").asBoolean() ? new Answers.Acquire.Granted(lease) : new Answers.Acquire.HeldByOther(lease);
        });
    }

    /** @param ttl the new TTL, or empty to keep the lease's current one */
    @Override
    public CompletableFuture<Answers.Renew> renew(LeaseKey key, HolderId holder, Fence revision, Optional<LeaseTtl> ttl) {
        ObjectNode body = body(key).put("holder", holder.value()).put("revision", revision.revision());
        ttl.ifPresent(value -> body.put("ttl_ms", value.millis()));
        return call("renew", body, requestTimeout, reply -> "lost".equals(reply.path("kind").asText())
                ? new Answers.Renew.Lost(reply.path("error").asText())
                : new Answers.Renew.Renewed(view(reply)));
    }

    @Override
    public CompletableFuture<Answers.Release> release(LeaseKey key, HolderId holder, Fence revision) {
        ObjectNode body = body(key).put("holder", holder.value()).put("revision", revision.revision());
        return call("release", body, requestTimeout, reply -> "lost".equals(reply.path("kind").asText())
                ? new Answers.Release.Lost(reply.path("error").asText())
                : new Answers.Release.Released(key, holder, new Fence(reply.path("revision").asLong())));
    }

    public CompletableFuture<Answers.Owner> owner(LeaseKey key) {
        return call("owner", body(key), requestTimeout, reply -> reply.path("held").asBoolean()
                ? new Answers.Owner.Held(view(reply))
                : new Answers.Owner.Free(key));
    }

    /**
     * Sends {@code payload} to whichever process holds {@code key}.
     *
     * @param timeout bounds dagnats' whole call (100 ms to 30 s); this client waits a little longer
     */
    public CompletableFuture<Answers.Forward> forward(LeaseKey key, byte[] payload, Duration timeout) {
        ObjectNode body = body(key).put("payload", Base64.getEncoder().encodeToString(payload))
                .put("timeout_ms", timeout.toMillis());
        return call("forward", body, timeout.plus(FORWARD_MARGIN), reply -> {
            String kind = reply.path("kind").asText();
            if (!kind.isEmpty()) {
                return new Answers.Forward.NotAnswered(kind, reply.path("error").asText(),
                        reply.path("holder").isTextual() ? reply.path("holder").asText() : null,
                        reply.path("revision").asLong());
            }
            return new Answers.Forward.Answered(new HolderId(reply.path("holder").asText()),
                    new Fence(reply.path("revision").asLong()),
                    Base64.getDecoder().decode(reply.path("payload").asText()));
        });
    }

    private static ObjectNode body(LeaseKey key) {
        return JSON.createObjectNode().put("key", key.value());
    }

    private <T> CompletableFuture<T> call(String operation, ObjectNode body, Duration timeout,
            Function<JsonNode, T> answer) {
        String subject = "api.leases." + operation;
        Headers headers = new Headers();
        Span span = telemetry.startCall(subject, body.path("key").asText(), headers);
        return send(operation, subject, body, timeout, headers, answer).whenComplete((value, failure) -> {
            if (failure != null) {
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause() : failure;
                span.setAttribute(HolderTelemetry.ERROR_TYPE,
                        cause instanceof DagnatsException dagnats ? dagnats.kind() : cause.getClass().getSimpleName());
            }
            span.end();
        });
    }

    private <T> CompletableFuture<T> send(String operation, String subject, ObjectNode body, Duration timeout,
            Headers headers, Function<JsonNode, T> answer) {
        CompletableFuture<Message> reply;
        try {
            reply = connection.requestWithTimeout(NatsMessage.builder()
                            .subject(subject)
                            .headers(headers)
                            .data(JSON.writeValueAsBytes(body))
                            .build(), timeout)
                    .orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (IOException | RuntimeException cannotSend) {
            return CompletableFuture.failedFuture(new DagnatsException("unavailable",
                    "could not send " + operation + ": " + cannotSend.getMessage(), cannotSend));
        }
        return reply.handle((message, failure) -> {
            if (failure != null) {
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause() : failure;
                throw new DagnatsException("unavailable", "no answer from dagnats to " + operation
                        + " (" + cause.getClass().getSimpleName() + ")", cause);
            }
            JsonNode parsed;
            try {
                parsed = JSON.readTree(message.getData());
            } catch (IOException | RuntimeException notJson) {
                throw new DagnatsException("internal", "dagnats answered " + operation + " with something not JSON", notJson);
            }
            String kind = parsed.path("kind").asText();
            if (isFailure(operation, kind)) {
                throw new DagnatsException(kind, parsed.path("error").asText());
            }
            return answer.apply(parsed);
        });
    }

    private static boolean isFailure(String operation, String kind) {
        if (kind.isEmpty() || "lost".equals(kind) && !"forward".equals(operation)) {
            return false;
        }
        return !("forward".equals(operation) && kind.startsWith("owner_")
                || "forward".equals(operation) && ("no_owner".equals(kind) || "reply_too_large".equals(kind)));
    }

    private static LeaseView view(JsonNode reply) {
        return new LeaseView(
                new LeaseKey(reply.path("key").asText()),
                new HolderId(reply.path("holder").asText()),
                new Fence(reply.path("revision").asLong()),
                Instant.parse(reply.path("acquired_at").asText()),
                Instant.parse(reply.path("expires_at").asText()),
                new LeaseTtl(reply.path("ttl_ms").asLong()));
    }
}
