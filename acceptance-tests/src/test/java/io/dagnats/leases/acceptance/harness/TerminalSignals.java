package io.dagnats.leases.acceptance.harness;

import java.util.ArrayList;
import java.util.List;

/**
 * Starts a process with SIGINT and SIGTERM at their defaults, as a terminal's shell would,
 * whatever this JVM inherited. A shell starts a background job ({@code nohup scripts/test.sh &})
 * with SIGINT ignored; every process the suite spawns inherits that, and a JVM that starts with
 * SIGINT ignored never installs its handler, so a test's Ctrl-C would never arrive.
 */
public final class TerminalSignals {

    private TerminalSignals() {
    }

    /** {@code command}, run through coreutils' {@code env --default-signal}. */
    public static List<String> atDefaults(List<String> command) {
        List<String> wrapped = new ArrayList<>(List.of("env", "--default-signal=INT,TERM"));
        wrapped.addAll(command);
        return wrapped;
    }
}
