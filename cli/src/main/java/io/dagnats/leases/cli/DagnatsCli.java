package io.dagnats.leases.cli;

import java.io.PrintWriter;
import java.time.Clock;
import picocli.CommandLine;

/**
 * The command line of the JAR: {@code dagnats serve} (also with no arguments
 * at all), {@code dagnats leases ls|get|watch|revoke}, {@code dagnats status}
 * and {@code dagnats --version}. Exit codes: 0 done, 1 an operational failure
 * (one line on stderr: NATS unreachable, no dagnats answered, permission
 * denied), 2 a usage or settings mistake (one line on stderr, with a hint).
 */
public final class DagnatsCli {

    /** What no arguments at all run: the service, as before there were commands. */
    private static final String[] SERVE = {"serve"};

    private DagnatsCli() {
    }

    /**
     * Runs one command on stdout and stderr and returns its exit code; stops a watch on SIGINT or SIGTERM.
     *
     * @param service the service the JAR carries: what {@code serve} runs, {@code --version} prints and the help lists
     */
    public static int run(String[] args, ConnectionOptions connections, ServiceLauncher service) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        return run(args, new Context(connections, out, err, Clock.systemUTC(), StopSignal.SIGINT_OR_SIGTERM, service));
    }

    static int run(String[] args, Context context) {
        CommandLine line = new CommandLine(new DagnatsCommand(), new ContextFactory(context))
                .setOut(context.out())
                .setErr(context.err())
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setParameterExceptionHandler(new OneLineUsageErrors(context.err()))
                .setExecutionExceptionHandler(new OneLineFailures(context.err()));
        line.getCommandSpec().version(context.service().versionLine());
        SettingsHelp.addTo(line, context.service().settings());
        SettingsHelp.addTo(line.getSubcommands().get("serve"), context.service().settings());
        try {
            return line.execute(args.length == 0 ? SERVE : args);
        } finally {
            context.out().flush();
            context.err().flush();
        }
    }
}
