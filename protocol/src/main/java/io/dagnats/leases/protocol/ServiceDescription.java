package io.dagnats.leases.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How the {@code dagnats-api} service describes itself to NATS micro discovery
 * (ADR-030): its description, the keys of its metadata, and each endpoint's
 * metadata and JSON Schemas. The discovery subjects and reply types
 * ({@code $SRV.INFO}, {@code io.nats.micro.v1.info_response}) are NATS's, not
 * this contract's, and stay with the adapter that answers them.
 *
 * <p>The schemas are resources beside this class, {@code schemas/<endpoint>.request.json}
 * and {@code schemas/<endpoint>.reply.json}; an endpoint without them is still
 * served and described, only without schemas.
 */
public final class ServiceDescription {

    public static final String DESCRIPTION =
            "dagnats leases: leader election and shard ownership over NATS request/reply";

    // Service metadata: every value is a string, as micro requires.
    /** dagnats' version. */
    public static final String VERSION = "version";
    /** The JetStream KV bucket that holds the leases. */
    public static final String BUCKET = "bucket";
    /** The version the nats-server dagnats is connected to announced. */
    public static final String NATS_SERVER_VERSION = "nats_server_version";
    /** {@code true} when lease calls are served now, {@code false} when they are refused. */
    public static final String LEASES_SUPPORTED = "leases_supported";
    /** Present only when {@link #LEASES_SUPPORTED} is {@code false}: the sentence lease calls are refused with. */
    public static final String UNSUPPORTED_REASON = "unsupported_reason";
    /**
     * How this instance authenticates to NATS: {@code none}, {@code creds}, {@code nkey}, {@code user} or
     * {@code token}; never a secret or a file name. This and the keys below let {@code dagnats status}
     * show what the start line's details told only the log.
     */
    public static final String AUTHENTICATION = "authentication";
    /** {@code on} or {@code off}: whether the connection to NATS uses TLS, with the files in use in brackets. */
    public static final String TLS = "tls";
    /** {@code off}, or the identity mode's name (ADR-036): whether holder ids are checked against callers. */
    public static final String IDENTITY_MODE = "identity_mode";
    /** Where traces and metrics go, as the start line's details say it ({@code telemetry off (...)}...). */
    public static final String TELEMETRY = "telemetry";
    /** The OTLP endpoint traces or metrics are pushed to, or {@code none}. */
    public static final String OTLP_ENDPOINT = "otlp_endpoint";
    /** The port {@code /metrics} (and the probes) answer on, or {@code none} without HTTP. */
    public static final String METRICS_PORT = "metrics_port";

    // Endpoint metadata.
    /** {@code lease} for an endpoint holders call, {@code admin} for one only operators should. */
    public static final String ENDPOINT_KIND = "kind";
    /** What the endpoint does, in one line. */
    public static final String ENDPOINT_DESCRIPTION = "description";
    /** The file name of the request's JSON Schema, which {@code $SRV.SCHEMA} returns; absent without one. */
    public static final String REQUEST_SCHEMA = "request_schema";
    /** The file name of the reply's JSON Schema, which {@code $SRV.SCHEMA} returns; absent without one. */
    public static final String REPLY_SCHEMA = "reply_schema";

    private static final String SCHEMAS = "schemas/";
    private static final String REQUEST_SUFFIX = ".request.json";
    private static final String REPLY_SUFFIX = ".reply.json";

    /** Who an endpoint is for. */
    public enum EndpointKind {
        LEASE("lease"),
        ADMIN("admin");

        private final String wireName;

        EndpointKind(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }

    private ServiceDescription() {
    }

    /** Who {@code operation} is for; a switch without default, so a new operation does not compile until it says. */
    public static EndpointKind kind(Operation operation) {
        return switch (operation) {
            case ACQUIRE, RENEW, RELEASE, OWNER, FORWARD, HANDOVER, CANDIDATES, ATTACH, DETACH, MOVE ->
                    EndpointKind.LEASE;
            case LIST, REVOKE -> EndpointKind.ADMIN;
        };
    }

    /** What {@code operation} does, in one line. */
    public static String description(Operation operation) {
        return switch (operation) {
            case ACQUIRE -> "take a free key, or learn who holds it";
            case RENEW -> "extend your lease and get its new fence, or learn it is lost";
            case RELEASE -> "give your lease up at once";
            case OWNER -> "who holds a key, changing nothing";
            case FORWARD -> "hand a request to whoever holds a key, fenced with its revision";
            case LIST -> "a page of the held leases, with a cursor for the next (not a snapshot)";
            case REVOKE -> "free a key over its holder's head, saying why (operators only)";
            case HANDOVER -> "hand your lease to a named, waiting successor in one fenced write";
            case CANDIDATES -> "who waits for a key right now, asked live (nothing is stored)";
            case ATTACH -> "attach a key to your member lease: it lives by that lease, no renew of its own";
            case DETACH -> "free a key attached to your member lease";
            case MOVE -> "attach your key to a live successor's member lease, in one write";
        };
    }

    /** The endpoint's metadata, in a stable order. */
    public static Map<String, String> endpointMetadata(Operation operation) {
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put(ENDPOINT_KIND, kind(operation).wireName());
        metadata.put(ENDPOINT_DESCRIPTION, description(operation));
        requestSchema(operation).ifPresent(schema -> metadata.put(REQUEST_SCHEMA, requestSchemaName(operation)));
        replySchema(operation).ifPresent(schema -> metadata.put(REPLY_SCHEMA, replySchemaName(operation)));
        return metadata;
    }

    /** The JSON Schema of {@code operation}'s request body, as text; empty when none ships. */
    public static Optional<String> requestSchema(Operation operation) {
        return schema(requestSchemaName(operation));
    }

    /** The JSON Schema of every reply {@code operation} answers with, errors included, as text; empty when none ships. */
    public static Optional<String> replySchema(Operation operation) {
        return schema(replySchemaName(operation));
    }

    private static String requestSchemaName(Operation operation) {
        return operation.endpointName() + REQUEST_SUFFIX;
    }

    private static String replySchemaName(Operation operation) {
        return operation.endpointName() + REPLY_SUFFIX;
    }

    /** The packaged schema file {@code name}; empty when there is none. */
    static Optional<String> schema(String name) {
        try (InputStream in = ServiceDescription.class.getResourceAsStream(SCHEMAS + name)) {
            return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException unreadable) {
            throw new UncheckedIOException("cannot read the packaged schema " + name, unreadable);
        }
    }
}
