package io.dagnats.leases.cli;

import java.util.List;
import java.util.Objects;

/**
 * What the JAR that runs the CLI says of the service it carries: its version
 * line, the settings {@code serve} reads, and how to serve. Bootstrap gives it,
 * so the CLI never reads the service's settings or version a second way.
 */
public interface ServiceLauncher {

    /** What {@code dagnats --version} prints, one line: {@code dagnats 0.1.0 (commit abc1234)}. */
    String versionLine();

    /** Every environment variable the service reads, in the order the help lists them. */
    List<Setting> settings();

    /**
     * Serves until SIGTERM or SIGINT, then drains; a start that fails logs one line.
     *
     * @return the process' exit code: 0 after a drain, 1 when it could not start, 2 for a mistake in the settings
     */
    int serve() throws InterruptedException;

    /**
     * One environment variable, as the help lists it.
     *
     * @param name    {@code DAGNATS_HTTP_PORT}, or a family such as {@code OTEL_*}
     * @param meaning one sentence with its default
     */
    record Setting(String name, String meaning) {

        public Setting {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(meaning, "meaning");
        }
    }
}
