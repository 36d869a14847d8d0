package io.dagnats.leases.cli;

import java.io.PrintWriter;
import java.time.Clock;
import picocli.CommandLine;

/**
 * The operator CLI: {@code dagnats leases ls|get|watch|revoke} and
 * {@code dagnats status}. Exit codes: 0 done, 1 an operational failure (one
 * line on stderr: NATS unreachable, no dagnats answered, permission denied),
 * 2 a usage or settings mistake.
 */
public final class DagnatsCli {

    private DagnatsCli() {
    }

    /** Runs one command on stdout and stderr and returns its exit code; stops a watch on SIGINT or SIGTERM. */
    public static int run(String[] args, ConnectionOptions connections) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        return run(args, new Context(connections, out, err, Clock.systemUTC(), StopSignal.SIGINT_OR_SIGTERM));
    }

    static int run(String[] args, Context context) {
        CommandLine line = new CommandLine(new DagnatsCommand(), new ContextFactory(context))
                .setOut(context.out())
                .setErr(context.err())
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler(new OneLineFailures(context.err()));
        try {
            return line.execute(args);
        } finally {
            context.out().flush();
            context.err().flush();
        }
    }
}
