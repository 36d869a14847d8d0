package io.dagnats.leases.cli;

import picocli.CommandLine.Option;

/** {@code -h}/{@code --help} on every command. */
final class HelpOption {

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean requested;
}
