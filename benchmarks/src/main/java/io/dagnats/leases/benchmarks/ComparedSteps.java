package io.dagnats.leases.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.Replies;
import io.dagnats.leases.protocol.Request;
import io.dagnats.leases.protocol.Requests;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The steps a row of {@link LeaseBenchmark} compares, side by side so that a reader checks in
 * one file that each pair does the same work: the service's request, through the protocol's
 * codecs, and the JetStream operations it is made of, issued directly with jnats, straight to
 * their subjects or through the {@link JnatsRelay}; and the one core NATS hop a service request adds.
 */
final class ComparedSteps {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] PAYLOAD = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    static final HolderId OWNER = new HolderId("bench-owner");
    private static final HolderId HOLDER = new HolderId("h");

    private final Connection[] connections;
    private final AtomicLong unique = new AtomicLong();

    /** @param connections the first also sets up the keys a step works on */
    ComparedSteps(Connection[] connections) {
        this.connections = connections;
    }

    /** One closed-loop client: issues its next request when the last one is answered. */
    @FunctionalInterface
    interface Step {
        /** Runs one request; returns false if the answer was wrong. */
        boolean run(Connection connection) throws Exception;
    }

    @FunctionalInterface
    interface StepFactory {
        Step create(int client) throws Exception;
    }

    // ---- the service ----

    StepFactory serviceStep(String op) {
        return switch (op) {
            case "acquire" -> client -> connection -> {
                LeaseKey key = new LeaseKey("fresh-" + unique.incrementAndGet());
                return call(connection, new Request.Acquire(key, HOLDER, LeaseTtl.ofSeconds(1)), Replies::decodeAcquire)
                        instanceof Answers.Acquire.Granted;
            };
            case "renew" -> client -> {
                LeaseKey key = new LeaseKey("renew-" + unique.incrementAndGet());
                Fence[] fence = {call(connections[0], new Request.Acquire(key, HOLDER, LeaseTtl.ofSeconds(60)),
                        Replies::decodeAcquire).lease().revision()};
                return connection -> {
                    Answers.Renew renew = call(connection, new Request.Renew(key, HOLDER, fence[0], Optional.empty()),
                            Replies::decodeRenew);
                    if (renew instanceof Answers.Renew.Renewed renewed) {
                        fence[0] = renewed.lease().revision();
                        return true;
                    }
                    return false;
                };
            };
            case "owner" -> client -> {
                LeaseKey key = new LeaseKey("owned-" + unique.incrementAndGet());
                call(connections[0], new Request.Acquire(key, HOLDER, LeaseTtl.ofSeconds(600)), Replies::decodeAcquire);
                Request owner = new Request.Owner(key);
                return connection -> call(connection, owner, Replies::decodeOwner) instanceof Answers.Owner.Held;
            };
            case "forward" -> client -> {
                LeaseKey key = new LeaseKey("fwd-" + unique.incrementAndGet());
                call(connections[0], new Request.Acquire(key, OWNER, LeaseTtl.ofSeconds(600)), Replies::decodeAcquire);
                Request forward = new Request.Forward(key, PAYLOAD, Request.Forward.DEFAULT_TIMEOUT);
                return connection -> call(connection, forward, Replies::decodeForward) instanceof Answers.Forward.Answered;
            };
            default -> throw new IllegalArgumentException(op);
        };
    }

    /** One request through the protocol's codecs; an error reply throws, which the run counts as an error. */
    private static <T> T call(Connection connection, Request request, Function<byte[], T> decode) throws Exception {
        Message reply = connection.request(request.operation().subject(), Requests.encode(request), Duration.ofSeconds(5));
        return decode.apply(reply == null ? null : reply.getData());
    }

    // ---- the same JetStream operations, directly ----

    StepFactory baselineStep(String op, Route route) {
        return switch (op) {
            case "acquire" -> client -> connection -> {
                String key = "raw-fresh-" + unique.incrementAndGet();
                Headers headers = new Headers();
                headers.put("Nats-Expected-Last-Subject-Sequence", "0");
                headers.put("Nats-TTL", "1s");
                return ok(publish(route, connection, key, headers), "\"seq\"");
            };
            case "renew" -> client -> {
                String key = "raw-renew-" + unique.incrementAndGet();
                Headers create = new Headers();
                create.put("Nats-TTL", "60s");
                publish(DIRECT, connections[0], key, create);
                return connection -> {
                    String get = request(route, connection, "$JS.API.STREAM.MSG.GET.KV_leases",
                            "{\"last_by_subj\":\"$KV.leases." + key + "\"}");
                    long seq = JSON.readTree(get).path("message").path("seq").asLong();
                    Headers headers = new Headers();
                    headers.put("Nats-Expected-Last-Subject-Sequence", Long.toString(seq));
                    headers.put("Nats-TTL", "60s");
                    return ok(publish(route, connection, key, headers), "\"seq\"");
                };
            };
            case "owner" -> client -> {
                String key = "raw-owned-" + unique.incrementAndGet();
                Headers create = new Headers();
                create.put("Nats-TTL", "600s");
                publish(DIRECT, connections[0], key, create);
                return connection -> ok(request(route, connection, "$JS.API.STREAM.MSG.GET.KV_leases",
                        "{\"last_by_subj\":\"$KV.leases." + key + "\"}"), "\"message\"");
            };
            case "forward" -> echoStep(route);
            default -> throw new IllegalArgumentException(op);
        };
    }

    /**
     * The one JetStream operation a service request is made of, where the baseline does more
     * (renew: the compare-and-set alone, under the sequence its last write was acknowledged
     * with; forward: the leader read); null where the baseline is that operation already.
     */
    StepFactory rawStep(String op, Route route) {
        return switch (op) {
            case "renew" -> client -> {
                String key = "raw-cas-" + unique.incrementAndGet();
                Headers create = new Headers();
                create.put("Nats-TTL", "60s");
                long[] seq = {JSON.readTree(publish(DIRECT, connections[0], key, create)).path("seq").asLong()};
                return connection -> {
                    Headers headers = new Headers();
                    headers.put("Nats-Expected-Last-Subject-Sequence", Long.toString(seq[0]));
                    headers.put("Nats-TTL", "60s");
                    String ack = publish(route, connection, key, headers);
                    seq[0] = JSON.readTree(ack).path("seq").asLong();
                    return ok(ack, "\"seq\"");
                };
            };
            case "forward" -> baselineStep("owner", route);
            default -> null;
        };
    }

    /**
     * What the service's request is made of, through the jnats relay: the raw operation,
     * and for forward the owner hop (a forward to the owner the service remembers).
     */
    StepFactory relayStep(String op) {
        return switch (op) {
            case "renew" -> rawStep(op, RELAYED);
            case "forward" -> echoStep(RELAYED);
            default -> baselineStep(op, RELAYED);
        };
    }

    /** One core NATS request/reply to an echo responder: the hop a service request adds. */
    StepFactory echoStep(Route route) {
        return client -> connection -> {
            Message reply = route.request(connection, NatsMessage.builder().subject("bench.echo").data(PAYLOAD).build());
            return reply != null && reply.getData().length == PAYLOAD.length;
        };
    }

    private static final byte[] RECORD = "{\"holder\":\"h\",\"acquired_at\":\"2026-11-30T00:00:00Z\",\"ttl_ms\":60000}"
            .getBytes(StandardCharsets.UTF_8);

    /** How a raw request travels: straight to its subject, or through the jnats relay. */
    @FunctionalInterface
    interface Route {
        Message request(Connection connection, Message message) throws Exception;
    }

    static final Route DIRECT = (connection, message) -> connection.request(message, Duration.ofSeconds(5));

    private static final Route RELAYED = (connection, message) -> {
        Headers headers = message.hasHeaders() ? new Headers(message.getHeaders()) : new Headers();
        headers.put(JnatsRelay.TO, message.getSubject());
        return connection.request(NatsMessage.builder().subject(JnatsRelay.SUBJECT).headers(headers)
                .data(message.getData()).build(), Duration.ofSeconds(5));
    };

    private static String publish(Route route, Connection connection, String key, Headers headers) throws Exception {
        Message reply = route.request(connection, NatsMessage.builder().subject("$KV.leases." + key).headers(headers)
                .data(RECORD).build());
        return reply == null ? "" : new String(reply.getData(), StandardCharsets.UTF_8);
    }

    private static String request(Route route, Connection connection, String subject, String body) throws Exception {
        Message reply = route.request(connection, NatsMessage.builder().subject(subject)
                .data(body.getBytes(StandardCharsets.UTF_8)).build());
        return reply == null ? "" : new String(reply.getData(), StandardCharsets.UTF_8);
    }

    private static boolean ok(String reply, String mustContain) {
        return reply.contains(mustContain) && !reply.contains("\"error\"");
    }
}
