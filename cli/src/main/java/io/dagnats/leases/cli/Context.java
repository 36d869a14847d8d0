package io.dagnats.leases.cli;

import java.io.PrintWriter;
import java.time.Clock;
import java.util.List;

/**
 * What every command is given: how to connect, where to write, the wall clock
 * (for "expires in"), how a watch learns it must stop, and the service the JAR
 * carries ({@code serve}, the version, the settings the help lists).
 */
record Context(ConnectionOptions connections, PrintWriter out, PrintWriter err, Clock clock, StopSignal stop,
        ServiceLauncher service) {

    /** For a CLI without a service to run: {@code serve} fails, the help lists no settings. */
    static final ServiceLauncher NO_SERVICE = new ServiceLauncher() {
        @Override
        public String versionLine() {
            return "dagnats";
        }

        @Override
        public List<Setting> settings() {
            return List.of();
        }

        @Override
        public int serve() {
            throw new CliFailure("this build of the CLI carries no service to serve");
        }
    };

    Context(ConnectionOptions connections, PrintWriter out, PrintWriter err, Clock clock, StopSignal stop) {
        this(connections, out, err, clock, stop, NO_SERVICE);
    }
}
