package io.dagnats.leases.bootstrap;

import io.dagnats.leases.cli.DagnatsCli;
import java.util.concurrent.CountDownLatch;
import java.util.logging.ConsoleHandler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import sun.misc.Signal;

/**
 * With no arguments, runs dagnats until SIGTERM or SIGINT, then drains:
 * requests in flight are answered, and the process exits 0. A start that fails
 * logs one line and exits non-zero. With arguments, runs the operator CLI
 * ({@code dagnats leases ls}, ...) and exits with its code.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) throws InterruptedException {
        configureLogging();
        if (args.length > 0) {
            System.exit(DagnatsCli.run(args, new CliConnectionOptions(System.getenv())));
        }
        Logger log = Logger.getLogger("dagnats");
        Settings settings;
        try {
            settings = Settings.fromEnvironment(System.getenv());
        } catch (IllegalArgumentException misconfigured) {
            log.severe("dagnats cannot start: " + misconfigured.getMessage());
            System.exit(2);
            return;
        }
        CountDownLatch stop = new CountDownLatch(1);
        Signal.handle(new Signal("TERM"), signal -> stop.countDown());
        Signal.handle(new Signal("INT"), signal -> stop.countDown());
        DagnatsServer server;
        try {
            server = DagnatsServer.start(settings);
        } catch (RuntimeException failed) {
            log.severe("dagnats cannot start: " + failed.getMessage());
            System.exit(1);
            return;
        }
        stop.await();
        log.info("dagnats stopping: answering requests in flight");
        server.close();
        log.info("dagnats stopped");
        System.exit(0);
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
