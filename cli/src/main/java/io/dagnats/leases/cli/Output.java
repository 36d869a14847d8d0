package io.dagnats.leases.cli;

import picocli.CommandLine.Option;

/** {@code -o table|json}: a table for people (the default), JSON for scripts. */
final class Output {

    enum Format { TABLE, JSON }

    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "table",
            description = "table (for people, the default) or json (for scripts).")
    Format format;

    boolean json() {
        return format == Format.JSON;
    }
}
