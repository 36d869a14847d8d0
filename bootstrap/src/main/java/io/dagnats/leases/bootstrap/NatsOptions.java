package io.dagnats.leases.bootstrap;

import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.GeneralSecurityException;

/**
 * jnats options for one server with the authentication and TLS the settings
 * name: what the service and the operator CLI have in common. Each adds the
 * behaviour of its own (reconnects, listeners, timeouts).
 */
final class NatsOptions {

    private NatsOptions() {
    }

    /**
     * @param servers a NATS URL, or several comma-separated
     * @throws IOException when the nkey seed cannot be read
     * @throws GeneralSecurityException when the TLS files cannot be used
     */
    static Options.Builder authenticated(String servers, ConnectionSettings connection, TlsSettings tls)
            throws IOException, GeneralSecurityException {
        Options.Builder options = Options.builder().server(servers);
        connection.credsFile().ifPresent(path -> options.credentialPath(path.toString()));
        if (connection.nkeySeedFile().isPresent()) {
            char[] seed = Files.readString(connection.nkeySeedFile().get(), StandardCharsets.US_ASCII).strip().toCharArray();
            options.authHandler(Nats.staticCredentials(null, seed));
        }
        if (connection.user().isPresent()) {
            options.userInfo(connection.user().get(), connection.password().orElseThrow());
        }
        connection.token().ifPresent(token -> options.token(token.toCharArray()));
        if (tls.configured()) {
            options.sslContext(TlsContexts.fromPem(tls.ca(), tls.certificate(), tls.key()));
        }
        return options;
    }
}
