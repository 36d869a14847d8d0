package io.dagnats.leases.cli;

import io.nats.client.Options;
import java.util.Optional;

/**
 * Where the NATS server is and how to prove who we are: the same environment
 * variables the service reads ({@code NATS_URL}, {@code NATS_CREDS}, ...),
 * read by whoever runs the CLI (bootstrap, with the service's own settings
 * code), so the CLI never reads them a second way.
 */
@FunctionalInterface
public interface ConnectionOptions {

    /**
     * jnats options with the server, authentication and TLS set; the CLI adds
     * the rest (name, timeouts, listeners) and connects.
     *
     * @param server the {@code --server} URL(s), or empty for the configured one
     * @throws IllegalArgumentException with a sentence naming the setting that is
     *         wrong or the file that cannot be used
     */
    Options.Builder forServer(Optional<String> server);
}
