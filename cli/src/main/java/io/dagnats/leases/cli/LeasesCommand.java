package io.dagnats.leases.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code dagnats leases}: list, show, watch, revoke and hold leases; list a key's candidates. */
@Command(name = "leases",
        description = "List, show, watch, revoke and hold leases; list a key's candidates.",
        subcommands = {ListLeases.class, GetLease.class, WatchLeases.class, RevokeLease.class, HoldLease.class,
                ListCandidates.class})
final class LeasesCommand implements Runnable {

    @CommandLine.Mixin
    HelpOption help;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a command: ls, get, watch, revoke, hold or candidates");
    }
}
