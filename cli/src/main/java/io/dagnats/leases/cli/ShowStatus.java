package io.dagnats.leases.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.domain.StoreDurability;
import io.dagnats.leases.protocol.JsonObjects;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.dagnats.leases.protocol.ListRequest;
import io.dagnats.leases.protocol.ServiceDescription;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code dagnats status}: the service instances (micro discovery) and how each is set up
 * (authentication, TLS, identity mode, telemetry, as its metadata says), the bucket's
 * settings and replicas (stream info), and the number of live leases. What
 * could be read is shown even when a part failed; the failure is then the one
 * line on stderr and the exit code is 1.
 */
@Command(name = "status", description = "Show the " + LeaseSubjects.SERVICE_NAME
        + " instances, the leases bucket and the number of live leases.")
final class ShowStatus implements Callable<Integer> {

    /** Metadata the service publishes in its micro info, when it does. */
    static final String NATS_SERVER_VERSION = "nats_server_version";
    static final String LEASES_SUPPORTED = "leases_supported";
    static final String UNSUPPORTED_REASON = "unsupported_reason";

    /** The instance details the service metadata carries, in the order shown, with their labels. */
    private static final Map<String, String> DETAILS = details();

    private final Context context;

    @Mixin
    CommonOptions options;

    ShowStatus(Context context) {
        this.context = context;
    }

    private static Map<String, String> details() {
        Map<String, String> details = new LinkedHashMap<>();
        details.put(ServiceDescription.AUTHENTICATION, "authentication");
        details.put(ServiceDescription.TLS, "TLS");
        details.put(ServiceDescription.IDENTITY_MODE, "identity mode");
        details.put(ServiceDescription.TELEMETRY, "telemetry");
        details.put(ServiceDescription.OTLP_ENDPOINT, "OTLP endpoint");
        details.put(ServiceDescription.METRICS_PORT, "metrics port");
        return details;
    }

    @Override
    public Integer call() throws InterruptedException {
        List<ServiceInstances.Instance> instances;
        Optional<BucketReport> bucket = Optional.empty();
        OptionalLong live = OptionalLong.empty();
        List<CliFailure> failures = new ArrayList<>();
        try (NatsSession session = options.open()) {
            instances = ServiceInstances.discover(session);
            if (instances.isEmpty()) {
                failures.add(new CliFailure("no dagnats service answered $SRV.INFO within "
                        + ServiceInstances.WINDOW.toSeconds() + " s: is dagnats running and connected to this NATS server?"));
            }
            try {
                bucket = Optional.of(BucketReport.read(session));
            } catch (CliFailure unreadable) {
                failures.add(unreadable);
            }
            if (!instances.isEmpty()) {
                try {
                    live = OptionalLong.of(new DagnatsCalls(session).listAll(KeyPrefix.ALL,
                            ListRequest.MAX_PAGE_SIZE).size());
                } catch (CliFailure uncounted) {
                    failures.add(uncounted);
                }
            }
        }
        Instant now = context.clock().instant();
        if (options.json()) {
            printJson(context.out(), instances, bucket, live, now);
        } else {
            printTables(context.out(), instances, bucket, live, now);
        }
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
        return 0;
    }

    private static void printTables(PrintWriter out, List<ServiceInstances.Instance> instances,
            Optional<BucketReport> bucket, OptionalLong live, Instant now) {
        Table table = new Table("INSTANCE", "VERSION", "NATS-SERVER", "LEASES", "UPTIME", "REQUESTS", "ERRORS");
        for (ServiceInstances.Instance instance : instances) {
            table.row(instance.id(), instance.version(),
                    instance.metadata(NATS_SERVER_VERSION).orElse("-"),
                    instance.metadata(LEASES_SUPPORTED).map(ShowStatus::supported).orElse("-"),
                    instance.started().map(started -> Human.span(Duration.between(started, now))).orElse("-"),
                    Long.toString(instance.requests()), Long.toString(instance.errors()));
        }
        table.print(out);
        out.println(Human.count(instances.size(), LeaseSubjects.SERVICE_NAME + " instance"));
        for (ServiceInstances.Instance instance : instances) {
            instance.metadata(UNSUPPORTED_REASON).ifPresent(reason ->
                    out.println(instance.id() + " serves no leases: " + reason));
        }
        for (ServiceInstances.Instance instance : instances) {
            printDetails(out, instance);
        }
        if (bucket.isPresent()) {
            BucketReport report = bucket.get();
            out.println();
            Table settings = new Table("bucket", report.bucket() + " (stream " + report.stream() + ")")
                    .row("replicas", report.replicasPhrase())
                    .row("history", Long.toString(report.history()))
                    .row("per-message TTL", report.messageTtl() ? "on" : "off")
                    .row("expiry markers", report.markerTtl().isZero() ? "off" : Human.setting(report.markerTtl()))
                    .row("storage", report.storage())
                    .row("durability", new StoreDurability(Math.max(1, report.replicas())).phrase())
                    .row("max age", report.maxAge().isZero() ? "none" : Human.setting(report.maxAge()))
                    .row("messages", report.messages() == 0 ? "0" : report.messages() + " (sequences "
                            + report.firstSequence() + " to " + report.lastSequence() + ")");
            report.created().ifPresent(created -> settings.row("created", Human.time(created)));
            for (Map.Entry<String, String> entry : report.metadata().entrySet()) {
                settings.row(entry.getKey(), entry.getValue());
            }
            settings.print(out);
        }
        if (live.isPresent()) {
            out.println();
            out.println("live leases: " + live.getAsLong());
        }
    }

    /**
     * How the instance is set up, as it publishes it: the start line leaves these to its details
     * line in the log, where an operator at another machine does not look. An instance older than
     * these keys publishes none of them, and gets no block.
     */
    private static void printDetails(PrintWriter out, ServiceInstances.Instance instance) {
        Table details = new Table("instance", instance.id());
        boolean any = false;
        for (Map.Entry<String, String> detail : DETAILS.entrySet()) {
            Optional<String> value = instance.metadata(detail.getKey());
            if (value.isPresent()) {
                details.row(detail.getValue(), value.get());
                any = true;
            }
        }
        if (any) {
            out.println();
            details.print(out);
        }
    }

    private static String supported(String value) {
        return switch (value) {
            case "true" -> "supported";
            case "false" -> "unsupported";
            default -> value;
        };
    }

    private static void printJson(PrintWriter out, List<ServiceInstances.Instance> instances,
            Optional<BucketReport> bucket, OptionalLong live, Instant now) {
        out.println(JsonObjects.text(generator -> {
            generator.writeArrayFieldStart("instances");
            for (ServiceInstances.Instance instance : instances) {
                generator.writeStartObject();
                generator.writeStringField("id", instance.id());
                generator.writeStringField("version", instance.version());
                if (instance.started().isPresent()) {
                    generator.writeStringField("started", Json.time(instance.started().get()));
                    generator.writeNumberField("uptime_ms", Duration.between(instance.started().get(), now).toMillis());
                }
                generator.writeNumberField("requests", instance.requests());
                generator.writeNumberField("errors", instance.errors());
                generator.writeObjectFieldStart("metadata");
                for (Map.Entry<String, String> entry : new TreeMap<>(instance.metadata()).entrySet()) {
                    generator.writeStringField(entry.getKey(), entry.getValue());
                }
                generator.writeEndObject();
                generator.writeEndObject();
            }
            generator.writeEndArray();
            if (bucket.isPresent()) {
                writeBucket(generator, bucket.get());
            }
            if (live.isPresent()) {
                generator.writeNumberField("live_leases", live.getAsLong());
            }
        }));
    }

    private static void writeBucket(JsonGenerator generator, BucketReport report) throws IOException {
        generator.writeObjectFieldStart("bucket");
        generator.writeStringField("name", report.bucket());
        generator.writeStringField("stream", report.stream());
        generator.writeNumberField("replicas", report.replicas());
        if (report.leader().isPresent()) {
            generator.writeStringField("leader", report.leader().get());
        }
        generator.writeNumberField("history", report.history());
        generator.writeBooleanField("allow_msg_ttl", report.messageTtl());
        generator.writeNumberField("marker_ttl_ms", report.markerTtl().toMillis());
        generator.writeStringField("storage", report.storage());
        generator.writeStringField("durability", new StoreDurability(Math.max(1, report.replicas())).phrase());
        generator.writeNumberField("max_age_ms", report.maxAge().toMillis());
        generator.writeNumberField("messages", report.messages());
        generator.writeNumberField("first_seq", report.firstSequence());
        generator.writeNumberField("last_seq", report.lastSequence());
        generator.writeObjectFieldStart("metadata");
        for (Map.Entry<String, String> entry : report.metadata().entrySet()) {
            generator.writeStringField(entry.getKey(), entry.getValue());
        }
        generator.writeEndObject();
        generator.writeEndObject();
    }
}
