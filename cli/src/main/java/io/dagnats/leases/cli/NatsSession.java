package io.dagnats.leases.cli;

import io.nats.client.Connection;
import io.nats.client.ConnectionListener;
import io.nats.client.ErrorListener;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * One command's NATS connection, quiet (jnats logs nothing), with the checks
 * that turn NATS' asynchronous refusals into one clear failure.
 */
final class NatsSession implements AutoCloseable {

    static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final Connection connection;

    private NatsSession(Connection connection) {
        this.connection = connection;
    }

    /** What a command that reconnects hears of its connection. */
    enum Connectivity {
        /** The connection dropped, or an attempt to reconnect failed (jnats tells each attempt). */
        LOST,
        /** A reconnect succeeded. */
        BACK
    }

    /**
     * @param reconnects empty to fail at once when the connection drops; else reconnect without
     *                   end, telling this of each drop and return
     * @throws CliFailure when the settings are wrong or no server accepts the connection
     */
    static NatsSession open(ConnectionOptions connections, Optional<String> server,
            Optional<Consumer<Connectivity>> reconnects) {
        Options.Builder builder;
        try {
            builder = connections.forServer(server);
        } catch (IllegalArgumentException misconfigured) {
            throw new CliFailure(misconfigured.getMessage(), CliFailure.USAGE);
        }
        Options options = builder
                .connectionName("dagnats-cli")
                .connectionTimeout(TIMEOUT)
                .maxReconnects(reconnects.isPresent() ? -1 : 0)
                .reconnectWait(Duration.ofMillis(500))
                // "no dagnats is listening" is then an answer, not a timeout.
                .reportNoResponders()
                .errorListener(new ErrorListener() {
                    // Errors are read from the connection where they matter (confirmPermitted); jnats logs none.
                })
                .connectionListener((connection, event) -> reconnects.ifPresent(told -> tell(event, told)))
                .build();
        try {
            return new NatsSession(Nats.connect(options));
        } catch (IOException refused) {
            // jnats says "Unable to connect to NATS servers: [url]" when nothing answered: name the URL once.
            String why = refused.getMessage() != null && refused.getMessage().startsWith("Unable to connect")
                    ? "no server answered" : refused.getMessage();
            throw new CliFailure("cannot connect to NATS at " + String.join(",", servers(options)) + ": " + why);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new CliFailure("interrupted while connecting to NATS");
        }
    }

    private static Iterable<String> servers(Options options) {
        return options.getServers().stream().map(Object::toString).toList();
    }

    private static void tell(ConnectionListener.Events event, Consumer<Connectivity> told) {
        switch (event) {
            case DISCONNECTED -> told.accept(Connectivity.LOST);
            case RECONNECTED -> told.accept(Connectivity.BACK);
            default -> {
                // connected, discovered servers, resubscribed: nothing to tell
            }
        }
    }

    Connection connection() {
        return connection;
    }

    /**
     * Waits for the server to have seen everything sent so far, then fails if it
     * refused any of it: NATS answers a publish or subscribe it does not permit
     * with an error on the connection, not on the request.
     *
     * @throws CliFailure naming what NATS refused, or that it did not answer
     */
    void confirmPermitted() {
        try {
            connection.flush(TIMEOUT);
        } catch (TimeoutException | IllegalStateException noAnswer) {
            throw new CliFailure("NATS did not answer within " + TIMEOUT.toSeconds() + " s");
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new CliFailure("interrupted while waiting for NATS");
        }
        String error = connection.getLastError();
        if (error != null && error.toLowerCase(Locale.ROOT).contains("permissions violation")) {
            connection.clearLastError();
            throw new CliFailure("permission denied: NATS refused this user: " + error);
        }
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
