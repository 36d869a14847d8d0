package io.dagnats.leases.cli;

import java.util.Optional;
import java.util.function.Consumer;
import picocli.CommandLine.Option;

/** {@code --server}, and opening the connection a command works on. */
final class Connect {

    private final Context context;

    @Option(names = {"-s", "--server"}, paramLabel = "URL",
            description = "NATS server URL(s), comma-separated (default: NATS_URL, else nats://127.0.0.1:4222).")
    String server;

    Connect(Context context) {
        this.context = context;
    }

    /** A connection for one request or a few: fails at once when the connection drops. */
    NatsSession open() {
        return NatsSession.open(context.connections(), Optional.ofNullable(server), Optional.empty());
    }

    /** A connection that reconnects when it drops (for a watch), telling {@code told} of each drop and return. */
    NatsSession openReconnecting(Consumer<NatsSession.Connectivity> told) {
        return NatsSession.open(context.connections(), Optional.ofNullable(server), Optional.of(told));
    }
}
