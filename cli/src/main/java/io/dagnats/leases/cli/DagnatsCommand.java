package io.dagnats.leases.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code dagnats}: the commands; with no arguments at all the JAR serves. */
@Command(name = "dagnats",
        description = {"Serve and operate dagnats leases. With no arguments, dagnats serves.",
                "The operator commands connect with NATS_URL, NATS_CREDS, NATS_NKEY, NATS_USER/NATS_PASSWORD, "
                        + "NATS_TOKEN, NATS_CA, NATS_CERT/NATS_KEY, as the service does; --server overrides NATS_URL."},
        subcommands = {ServeCommand.class, LeasesCommand.class, ShowStatus.class, ShowShards.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done", "1:an operational failure (NATS unreachable, no dagnats answered, permission denied)",
                "2:a usage or settings mistake"})
final class DagnatsCommand implements Runnable {

    @CommandLine.Mixin
    HelpOption help;

    @Option(names = {"-V", "--version"}, versionHelp = true, description = "Show the version and exit.")
    boolean version;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a command: serve, leases, shards or status");
    }
}
