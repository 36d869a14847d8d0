package io.dagnats.leases.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.Subscription;
import io.nats.service.Service;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code dagnats-api} instances micro discovery finds: every answer to
 * {@code $SRV.INFO.dagnats-api} within {@link #WINDOW}, then each one's
 * {@code $SRV.STATS}. (jnats' {@code Discovery} reads the server's "no
 * responders" status as an answer and fails on it; this stops there instead.)
 */
final class ServiceInstances {

    /** How long discovery collects answers: every instance on a healthy system answers well within it. */
    static final Duration WINDOW = Duration.ofSeconds(1);

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One instance as it describes itself.
     *
     * @param metadata what the instance publishes (dagnats: nats_server_version, leases_supported...)
     * @param started  empty when its stats did not answer
     */
    record Instance(String id, String version, Map<String, String> metadata, Optional<Instant> started,
            long requests, long errors) {

        Optional<String> metadata(String name) {
            return Optional.ofNullable(metadata.get(name)).filter(value -> !value.isBlank());
        }
    }

    private ServiceInstances() {
    }

    /** Every instance that answered within {@link #WINDOW}, sorted by id; empty when none did. */
    static List<Instance> discover(NatsSession session) throws InterruptedException {
        List<Instance> instances = new ArrayList<>();
        for (JsonNode info : gather(session, subject(Service.SRV_INFO))) {
            String id = info.path("id").asText("");
            if (id.isEmpty()) {
                continue;
            }
            Map<String, String> metadata = new LinkedHashMap<>();
            info.path("metadata").fields().forEachRemaining(entry -> metadata.put(entry.getKey(), entry.getValue().asText()));
            Optional<JsonNode> stats = ask(session.connection(), subject(Service.SRV_STATS) + "." + id);
            long requests = 0;
            long errors = 0;
            for (JsonNode endpoint : stats.map(node -> node.path("endpoints")).orElse(JSON.createArrayNode())) {
                requests += endpoint.path("num_requests").asLong();
                errors += endpoint.path("num_errors").asLong();
            }
            Optional<Instant> started = stats.map(node -> node.path("started").asText(null)).flatMap(ServiceInstances::instant);
            instances.add(new Instance(id, info.path("version").asText("-"), Map.copyOf(metadata), started, requests, errors));
        }
        instances.sort(Comparator.comparing(Instance::id));
        return instances;
    }

    private static String subject(String verb) {
        return Service.DEFAULT_SERVICE_PREFIX + verb + "." + LeaseSubjects.SERVICE_NAME;
    }

    /** Every JSON answer to {@code subject} within {@link #WINDOW}; none at once when nobody listens. */
    private static List<JsonNode> gather(NatsSession session, String subject) throws InterruptedException {
        Connection connection = session.connection();
        String inbox = connection.createInbox();
        Subscription answers = connection.subscribe(inbox);
        try {
            connection.publish(subject, inbox, null);
            session.confirmPermitted();
            List<JsonNode> gathered = new ArrayList<>();
            long deadline = System.nanoTime() + WINDOW.toNanos();
            long left;
            while ((left = deadline - System.nanoTime()) > 0) {
                Message answer = answers.nextMessage(Duration.ofNanos(left));
                if (answer == null) {
                    break;
                }
                if (answer.isStatusMessage()) {
                    if (answer.getStatus().isNoResponders()) {
                        break;
                    }
                    continue;
                }
                parse(answer.getData()).ifPresent(gathered::add);
            }
            return gathered;
        } finally {
            answers.unsubscribe();
        }
    }

    private static Optional<JsonNode> ask(Connection connection, String subject) throws InterruptedException {
        Message answer = connection.request(subject, null, WINDOW);
        return answer == null || answer.isStatusMessage() ? Optional.empty() : parse(answer.getData());
    }

    private static Optional<JsonNode> parse(byte[] body) {
        try {
            JsonNode node = JSON.readTree(body);
            return node != null && node.isObject() ? Optional.of(node) : Optional.empty();
        } catch (IOException notJson) {
            return Optional.empty();
        }
    }

    private static Optional<Instant> instant(String text) {
        try {
            return Optional.ofNullable(text).map(value -> OffsetDateTime.parse(value).toInstant());
        } catch (DateTimeParseException unreadable) {
            return Optional.empty();
        }
    }
}
