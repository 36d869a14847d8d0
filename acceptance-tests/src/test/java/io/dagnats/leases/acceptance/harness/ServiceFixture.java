package io.dagnats.leases.acceptance.harness;

import io.dagnats.leases.bootstrap.DagnatsServer;
import io.dagnats.leases.bootstrap.Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The usual set-up of an acceptance test: a real nats-server of its own, one
 * dagnats serving on it, and a wire-level client. Closed in reverse order.
 * Every test that needs that set-up starts it here, through {@link #start()} or,
 * for another server or other settings, {@link #with()}: so the order of starting
 * and stopping, and the cleanup when a start fails, are written once.
 */
public final class ServiceFixture implements AutoCloseable {

    public final NatsServerProcess nats;
    public final WireClient client;
    private final Map<String, String> environment;
    private final Settings settings;
    private final Optional<Path> configFile;
    private volatile DagnatsServer dagnats;

    private ServiceFixture(NatsServerProcess nats, Map<String, String> environment, DagnatsServer dagnats,
            WireClient client, Optional<Path> configFile) {
        this.nats = nats;
        this.environment = Map.copyOf(environment);
        this.settings = Settings.fromEnvironment(environment);
        this.dagnats = dagnats;
        this.client = client;
        this.configFile = configFile;
    }

    /** A 2.11+ server with JetStream, dagnats at its default settings, and a client. */
    public static ServiceFixture start() {
        return with().start();
    }

    /** To choose the server or dagnats's settings before starting. */
    public static Builder with() {
        return new Builder();
    }

    /** The dagnats the fixture started (or, after {@link #restartDagnats()}, its replacement). */
    public DagnatsServer dagnats() {
        if (dagnats == null) {
            throw new IllegalStateException("the fixture's dagnats was stopped");
        }
        return dagnats;
    }

    /** Closes the fixture's dagnats now (a clean stop, draining); closing the fixture then leaves it alone. */
    public void stopDagnats() throws InterruptedException {
        DagnatsServer stopping = dagnats();
        dagnats = null;
        stopping.close();
    }

    /** The settings every dagnats of this fixture is started with. */
    public Settings settings() {
        return settings;
    }

    /**
     * Another dagnats on the same server with the same settings: beside the fixture's own (in the
     * same queue group), or, after {@link #stopDagnats()}, one that never saw what the first saw.
     * The caller closes it (the fixture closes only its own).
     */
    public DagnatsServer startAnother() {
        return DagnatsServer.start(settings);
    }

    /**
     * A second dagnats on the same server whose environment differs from the fixture's own in
     * {@code variables} (another OTEL_SERVICE_NAME, say). The caller closes it.
     */
    public DagnatsServer startAnother(Map<String, String> variables) {
        Map<String, String> differing = new HashMap<>(environment);
        differing.putAll(variables);
        return DagnatsServer.start(Settings.fromEnvironment(differing));
    }

    /**
     * Starts a fresh dagnats, with the same settings, in place of the fixture's own, which the test
     * has crashed or stopped: the fixture closes the new one (and never the one replaced).
     */
    public DagnatsServer restartDagnats() {
        dagnats = DagnatsServer.start(settings);
        return dagnats;
    }

    @Override
    public void close() throws InterruptedException {
        try {
            client.close();
            if (dagnats != null) {
                dagnats.close();
            }
        } finally {
            nats.close();
            configFile.ifPresent(ServiceFixture::deleteQuietly);
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // a leftover temp file is harmless
        }
    }

    /** The choices a test may make before the fixture starts: which server, and dagnats's environment. */
    public static final class Builder {

        private Supplier<NatsServerProcess> server = NatsServerProcess::modern;
        private final Map<String, String> environment = new HashMap<>();
        private Optional<Path> configFile = Optional.empty();

        private Builder() {
        }

        /** Another server than a plain 2.11+ with JetStream (a legacy one, one without JetStream, ...). */
        public Builder server(Supplier<NatsServerProcess> server) {
            this.server = server;
            return this;
        }

        /** A 2.11+ server with JetStream and these extra command-line arguments. */
        public Builder serverArguments(String... arguments) {
            return server(() -> NatsServerProcess.modern(arguments));
        }

        /** A 2.11+ server with JetStream and {@code text} as its configuration file (removed on close). */
        public Builder serverConfig(String text) {
            try {
                Path file = Files.createTempFile("nats-server-", ".conf");
                Files.writeString(file, text);
                configFile = Optional.of(file);
                return serverArguments("-c", file.toString());
            } catch (IOException failed) {
                throw new UncheckedIOException(failed);
            }
        }

        /** One more variable of dagnats's environment (NATS_URL is always the fixture's server). */
        public Builder environment(String name, String value) {
            environment.put(name, value);
            return this;
        }

        /** More variables of dagnats's environment (DAGNATS_*, OTEL_*, ...). */
        public Builder environment(Map<String, String> variables) {
            environment.putAll(variables);
            return this;
        }

        public ServiceFixture start() {
            NatsServerProcess nats;
            try {
                nats = server.get();
            } catch (RuntimeException failed) {
                configFile.ifPresent(ServiceFixture::deleteQuietly);
                throw failed;
            }
            try {
                Map<String, String> variables = new HashMap<>(environment);
                variables.put("NATS_URL", nats.url());
                DagnatsServer dagnats = DagnatsServer.start(Settings.fromEnvironment(variables));
                try {
                    return new ServiceFixture(nats, variables, dagnats, new WireClient(nats.url()), configFile);
                } catch (RuntimeException failed) {
                    dagnats.crash();
                    throw failed;
                }
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                nats.close();
                configFile.ifPresent(ServiceFixture::deleteQuietly);
                throw new IllegalStateException(interrupted);
            } catch (RuntimeException failed) {
                nats.close();
                configFile.ifPresent(ServiceFixture::deleteQuietly);
                throw failed;
            }
        }
    }
}
