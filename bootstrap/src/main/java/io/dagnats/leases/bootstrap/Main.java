package io.dagnats.leases.bootstrap;

import io.dagnats.leases.cli.DagnatsCli;
import java.util.logging.ConsoleHandler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;

/**
 * The JAR's command line ({@link DagnatsCli}): {@code serve}, also with no
 * arguments at all, runs dagnats until SIGTERM or SIGINT, then drains
 * (requests in flight are answered, and the process exits 0); a start that
 * fails logs one line and exits non-zero. The operator commands
 * ({@code dagnats leases ls}, ...) and {@code --version} exit with their code.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        configureLogging();
        System.exit(DagnatsCli.run(args, new CliConnectionOptions(System.getenv()), new JarService(System.getenv())));
    }

    private static void configureLogging() {
        if (System.getProperty("java.util.logging.config.file") != null) {
            return;
        }
        System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tFT%1$tT.%1$tLZ %4$s %5$s%6$s%n");
        LogManager.getLogManager().reset();
        ConsoleHandler console = new ConsoleHandler();
        console.setLevel(Level.INFO);
        Logger root = Logger.getLogger("");
        root.addHandler(console);
        root.setLevel(Level.INFO);
    }
}
