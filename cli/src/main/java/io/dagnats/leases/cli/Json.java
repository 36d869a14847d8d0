package io.dagnats.leases.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import io.dagnats.leases.protocol.JsonObjects;
import io.dagnats.leases.protocol.LeaseView;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;

/**
 * The CLI's JSON for scripts: one object per line ({@link JsonObjects#text}). A lease
 * has the wire's lease-view fields (docs/wire-protocol.md), plus {@code expires_in_ms}
 * as this machine's clock sees it.
 */
final class Json {

    private Json() {
    }

    /** A lease's fields, without the braces (so a caller can add its own). */
    static void lease(JsonGenerator generator, LeaseView lease, Instant now) throws IOException {
        generator.writeStringField("key", lease.key().value());
        if (lease.account().isPresent()) {
            generator.writeStringField("account", lease.account().get().value());
        }
        generator.writeStringField("holder", lease.holder().value());
        if (lease.incarnation().isPresent()) {
            generator.writeStringField("incarnation", lease.incarnation().get().value());
        }
        JsonObjects.writeFence(generator, "revision", lease.revision());
        if (lease.tenure().isPresent()) {
            JsonObjects.writeFence(generator, "tenure", lease.tenure().get());
        }
        generator.writeStringField("acquired_at", time(lease.acquiredAt()));
        generator.writeStringField("expires_at", time(lease.expiresAt()));
        generator.writeNumberField("ttl_ms", lease.ttl().millis());
        generator.writeNumberField("expires_in_ms", Math.max(0, Duration.between(now, lease.expiresAt()).toMillis()));
    }

    static String time(Instant instant) {
        return DateTimeFormatter.ISO_INSTANT.format(instant);
    }
}
