package io.dagnats.leases.cli;

import picocli.CommandLine.Mixin;

/** What every command that talks to NATS takes: {@code -h}, {@code --server}, {@code -o}. */
final class CommonOptions {

    @Mixin
    HelpOption help;
    @Mixin
    Connect connect;
    @Mixin
    Output output;

    NatsSession open() {
        return connect.open();
    }

    boolean json() {
        return output.json();
    }
}
