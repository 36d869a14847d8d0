package io.dagnats.leases.bootstrap;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Where the NATS server is and how dagnats proves who it is, with the names the
 * NATS tools use: {@code NATS_URL}, and at most one of {@code NATS_CREDS},
 * {@code NATS_NKEY}, {@code NATS_USER}/{@code NATS_PASSWORD}, {@code NATS_TOKEN}.
 */
public record ConnectionSettings(
        String natsUrl,
        Optional<Path> credsFile,
        Optional<Path> nkeySeedFile,
        Optional<String> user,
        Optional<String> password,
        Optional<String> token) {

    public static final String DEFAULT_NATS_URL = "nats://127.0.0.1:4222";

    /** @throws IllegalArgumentException naming the settings that do not go together */
    public ConnectionSettings {
        if (user.isPresent() != password.isPresent()) {
            throw new IllegalArgumentException("NATS_USER and NATS_PASSWORD go together: set both or neither");
        }
        int ways = (credsFile.isPresent() ? 1 : 0) + (nkeySeedFile.isPresent() ? 1 : 0)
                + (user.isPresent() ? 1 : 0) + (token.isPresent() ? 1 : 0);
        if (ways > 1) {
            throw new IllegalArgumentException(
                    "set one way to authenticate: NATS_CREDS, NATS_NKEY, NATS_USER/NATS_PASSWORD or NATS_TOKEN");
        }
    }

    static ConnectionSettings from(EnvironmentReader reader) {
        return new ConnectionSettings(
                reader.text("NATS_URL").orElse(DEFAULT_NATS_URL),
                reader.file("NATS_CREDS"),
                reader.file("NATS_NKEY"),
                reader.text("NATS_USER"),
                reader.text("NATS_PASSWORD"),
                reader.text("NATS_TOKEN"));
    }

    /** The way of authenticating, secrets left out, for the start-up log. */
    void describe(List<String> parts) {
        credsFile.ifPresent(path -> parts.add("creds " + path));
        nkeySeedFile.ifPresent(path -> parts.add("nkey " + path));
        user.ifPresent(name -> parts.add("user " + name));
        token.ifPresent(ignored -> parts.add("token"));
    }
}
