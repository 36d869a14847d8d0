package io.dagnats.leases.adapters.nats;

import com.fasterxml.jackson.core.JsonGenerator;
import io.dagnats.leases.protocol.JsonObjects;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.dagnats.leases.protocol.Operation;
import io.dagnats.leases.protocol.ServiceDescription;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.NUID;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The {@code dagnats-api} NATS micro service (ADR-32, v1 replies), answered by
 * hand rather than by jnats' {@code Service} (ADR-030): one endpoint per route
 * in the queue group {@code dagnats-leases}, and the discovery subjects
 * {@code $SRV.PING|INFO|STATS|SCHEMA}, each also with {@code .dagnats-api} and
 * {@code .dagnats-api.<id>}. Lease requests go to the {@link Dispatcher}, which
 * counts them in each endpoint's {@link EndpointStats}; the service metadata is
 * asked for on every discovery reply, since whether leases are served can change.
 * Discovery subjects and reply types are NATS's names, so they live here.
 */
final class MicroResponder {

    private static final System.Logger LOG = System.getLogger(MicroResponder.class.getName());
    private static final String DISCOVERY_PREFIX = "$SRV.";
    /** Past the drain's own bound, how long to wait for jnats to report it. */
    private static final Duration DRAIN_REPORT = Duration.ofSeconds(1);

    private enum Verb {
        PING, INFO, STATS, SCHEMA;

        String type() {
            return "io.nats.micro.v1." + name().toLowerCase(Locale.ROOT) + "_response";
        }
    }

    /** One endpoint: its route, its counters, and what discovery says of it (fixed for the service's life). */
    private record Endpoint(Dispatcher.Route<?> route, EndpointStats stats, Map<String, String> metadata,
            Optional<String> requestSchema, Optional<String> replySchema) {

        static Endpoint of(Dispatcher.Route<?> route) {
            Operation operation = route.operation();
            return new Endpoint(route, new EndpointStats(), ServiceDescription.endpointMetadata(operation),
                    ServiceDescription.requestSchema(operation), ServiceDescription.replySchema(operation));
        }
    }

    private final Connection connection;
    private final Dispatcher dispatcher;
    private final String version;
    private final Supplier<Map<String, String>> metadata;
    private final List<Endpoint> endpoints;
    private final String id = NUID.nextGlobal();
    private volatile io.nats.client.Dispatcher subscriptions;
    private volatile Instant started = Instant.EPOCH;

    /**
     * @param routes   one endpoint each, in this order
     * @param metadata the service metadata as it is now, asked on every discovery reply
     */
    MicroResponder(Connection connection, Dispatcher dispatcher, List<Dispatcher.Route<?>> routes, String version,
            Supplier<Map<String, String>> metadata) {
        this.connection = Objects.requireNonNull(connection, "connection");
        this.dispatcher = Objects.requireNonNull(dispatcher, "dispatcher");
        this.version = Objects.requireNonNull(version, "version");
        this.metadata = Objects.requireNonNull(metadata, "metadata");
        this.endpoints = routes.stream().map(Endpoint::of).toList();
    }

    /** Subscribes the endpoints and the discovery subjects; they reach the server with the connection's next flush. */
    void start() {
        io.nats.client.Dispatcher subscribing = connection.createDispatcher();
        started = Instant.now();
        for (Endpoint endpoint : endpoints) {
            subscribing.subscribe(endpoint.route().operation().subject(), LeaseSubjects.QUEUE_GROUP,
                    message -> dispatcher.dispatch(endpoint.route(), message, endpoint.stats()));
        }
        for (Verb verb : Verb.values()) {
            for (String subject : List.of(DISCOVERY_PREFIX + verb,
                    DISCOVERY_PREFIX + verb + "." + LeaseSubjects.SERVICE_NAME,
                    DISCOVERY_PREFIX + verb + "." + LeaseSubjects.SERVICE_NAME + "." + id)) {
                subscribing.subscribe(subject, message -> discover(verb, message));
            }
        }
        subscriptions = subscribing;
    }

    /**
     * Stops taking requests: unsubscribes everything at the server, then waits up
     * to {@code timeout} for the requests already delivered to be handed to the
     * {@link Dispatcher} (their replies may still be on their way).
     *
     * @return true when every delivered request was taken
     */
    boolean stop(Duration timeout) throws InterruptedException {
        io.nats.client.Dispatcher running = subscriptions;
        subscriptions = null;
        if (running == null) {
            return true;
        }
        try {
            return running.drain(timeout).get(timeout.plus(DRAIN_REPORT).toMillis(), TimeUnit.MILLISECONDS);
        } catch (IllegalStateException closed) {
            return false; // the connection closed first: nothing left to take
        } catch (ExecutionException | TimeoutException notReported) {
            return false;
        }
    }

    private void discover(Verb verb, Message request) {
        if (request.getReplyTo() == null) {
            return;
        }
        try {
            connection.publish(request.getReplyTo(), reply(verb));
        } catch (RuntimeException failed) {
            LOG.log(System.Logger.Level.WARNING, "could not answer " + request.getSubject() + ": " + failed.getMessage());
        }
    }

    private byte[] reply(Verb verb) {
        return JsonObjects.bytes(generator -> {
            generator.writeStringField("type", verb.type());
            generator.writeStringField("name", LeaseSubjects.SERVICE_NAME);
            generator.writeStringField("id", id);
            generator.writeStringField("version", version);
            writeStrings(generator, "metadata", metadata.get());
            switch (verb) {
                case PING -> { }
                case INFO -> {
                    generator.writeStringField("description", ServiceDescription.DESCRIPTION);
                    writeEndpoints(generator, endpoint -> writeStrings(generator, "metadata", endpoint.metadata()));
                }
                case STATS -> {
                    writeEndpoints(generator, endpoint -> writeStats(generator, endpoint.stats().snapshot()));
                    generator.writeStringField("started", DateTimeFormatter.ISO_INSTANT.format(started));
                }
                case SCHEMA -> writeEndpoints(generator, endpoint -> {
                    writeStrings(generator, "metadata", endpoint.metadata());
                    writeSchema(generator, endpoint);
                });
            }
        });
    }

    @FunctionalInterface
    private interface EndpointFields {
        void write(Endpoint endpoint) throws IOException;
    }

    /** The endpoints array: each endpoint's name, subject and queue group, then what {@code more} adds. */
    private void writeEndpoints(JsonGenerator generator, EndpointFields more) throws IOException {
        generator.writeArrayFieldStart("endpoints");
        for (Endpoint endpoint : endpoints) {
            generator.writeStartObject();
            generator.writeStringField("name", endpoint.route().operation().endpointName());
            generator.writeStringField("subject", endpoint.route().operation().subject());
            generator.writeStringField("queue_group", LeaseSubjects.QUEUE_GROUP);
            more.write(endpoint);
            generator.writeEndObject();
        }
        generator.writeEndArray();
    }

    private static void writeStats(JsonGenerator generator, EndpointStats.Snapshot stats) throws IOException {
        generator.writeNumberField("num_requests", stats.requests());
        generator.writeNumberField("num_errors", stats.errors());
        generator.writeStringField("last_error", stats.lastError());
        generator.writeNumberField("processing_time", stats.processingNanos());
        generator.writeNumberField("average_processing_time", stats.averageProcessingNanos());
    }

    /** The older micro v1 schema reply: JSON Schema documents as strings; an endpoint without one has none. */
    private static void writeSchema(JsonGenerator generator, Endpoint endpoint) throws IOException {
        if (endpoint.requestSchema().isEmpty() && endpoint.replySchema().isEmpty()) {
            return;
        }
        generator.writeObjectFieldStart("schema");
        if (endpoint.requestSchema().isPresent()) {
            generator.writeStringField("request", endpoint.requestSchema().get());
        }
        if (endpoint.replySchema().isPresent()) {
            generator.writeStringField("response", endpoint.replySchema().get());
        }
        generator.writeEndObject();
    }

    private static void writeStrings(JsonGenerator generator, String field, Map<String, String> values)
            throws IOException {
        generator.writeObjectFieldStart(field);
        for (Map.Entry<String, String> value : values.entrySet()) {
            generator.writeStringField(value.getKey(), value.getValue());
        }
        generator.writeEndObject();
    }
}
