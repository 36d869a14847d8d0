package io.dagnats.leases.bootstrap;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * TLS to the NATS server from PEM files, with the names the NATS tools use:
 * {@code NATS_CA} to trust the server, {@code NATS_CERT} and {@code NATS_KEY}
 * to present a client certificate.
 */
public record TlsSettings(Optional<Path> ca, Optional<Path> certificate, Optional<Path> key) {

    /** @throws IllegalArgumentException when a certificate comes without its key or the other way round */
    public TlsSettings {
        if (certificate.isPresent() != key.isPresent()) {
            throw new IllegalArgumentException("NATS_CERT and NATS_KEY go together: set both or neither");
        }
    }

    static TlsSettings from(EnvironmentReader reader) {
        return new TlsSettings(reader.file("NATS_CA"), reader.file("NATS_CERT"), reader.file("NATS_KEY"));
    }

    /** Whether the connection uses TLS set up here (a {@code tls://} URL alone uses the JDK's trust). */
    boolean configured() {
        return ca.isPresent() || certificate.isPresent();
    }

    /** The files in use, for the start-up log. */
    void describe(List<String> parts) {
        ca.ifPresent(path -> parts.add("TLS CA " + path));
        certificate.ifPresent(path -> parts.add("TLS client certificate " + path));
    }
}
