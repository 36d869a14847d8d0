package io.dagnats.leases.bootstrap;

import io.dagnats.leases.cli.ConnectionOptions;
import io.nats.client.Options;
import java.io.IOException;
import java.net.URISyntaxException;
import java.security.GeneralSecurityException;
import java.util.Map;
import java.util.Optional;

/**
 * The operator CLI's connection: the service's connection and TLS settings,
 * read from the same environment variables, with {@code --server} in place of
 * {@code NATS_URL} when given.
 */
final class CliConnectionOptions implements ConnectionOptions {

    private final Map<String, String> environment;

    CliConnectionOptions(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    @Override
    public Options.Builder forServer(Optional<String> server) {
        EnvironmentReader reader = new EnvironmentReader(environment);
        ConnectionSettings connection = ConnectionSettings.from(reader);
        TlsSettings tls = TlsSettings.from(reader);
        String servers = server.orElse(connection.natsUrl());
        try {
            return NatsOptions.authenticated(servers, connection, tls);
        } catch (IOException | GeneralSecurityException unusable) {
            throw new IllegalArgumentException("cannot use the credentials or TLS files: " + unusable.getMessage());
        } catch (IllegalArgumentException notAUrl) {
            String why = notAUrl.getCause() instanceof URISyntaxException syntax ? syntax.getReason() : notAUrl.getMessage();
            throw new IllegalArgumentException("not a NATS server URL: " + servers + " (" + why + ")");
        }
    }
}
