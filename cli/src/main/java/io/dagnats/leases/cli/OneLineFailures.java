package io.dagnats.leases.cli;

import java.io.PrintWriter;
import picocli.CommandLine;

/** A failed command as one line on stderr and its exit code; never a stack trace. */
final class OneLineFailures implements CommandLine.IExecutionExceptionHandler {

    private final PrintWriter err;

    OneLineFailures(PrintWriter err) {
        this.err = err;
    }

    @Override
    public int handleExecutionException(Exception failure, CommandLine command, CommandLine.ParseResult parsed) {
        if (failure instanceof CliFailure known) {
            err.println("dagnats: " + known.getMessage());
            return known.exitCode();
        }
        err.println("dagnats: " + command.getCommandName() + " failed unexpectedly: " + failure);
        return CliFailure.OPERATIONAL;
    }
}
