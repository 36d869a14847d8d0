package io.dagnats.leases.bootstrap;

import io.dagnats.leases.cli.ServiceLauncher;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Logger;
import sun.misc.Signal;

/** The service the JAR carries, as the CLI runs it: {@code dagnats serve}, {@code --version}, the settings in the help. */
final class JarService implements ServiceLauncher {

    private final Map<String, String> environment;

    JarService(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    @Override
    public String versionLine() {
        return DagnatsVersion.current().line();
    }

    @Override
    public List<Setting> settings() {
        return KnownSettings.all();
    }

    /** Serves until SIGTERM or SIGINT, then drains: 0; a start that fails logs one line: 2 for a setting, else 1. */
    @Override
    public int serve() throws InterruptedException {
        Logger log = Logger.getLogger("dagnats");
        Settings settings;
        try {
            settings = Settings.fromEnvironment(environment);
        } catch (IllegalArgumentException misconfigured) {
            log.severe("dagnats cannot start: " + misconfigured.getMessage());
            return 2;
        }
        CountDownLatch stop = new CountDownLatch(1);
        Signal.handle(new Signal("TERM"), signal -> stop.countDown());
        Signal.handle(new Signal("INT"), signal -> stop.countDown());
        DagnatsServer server;
        try {
            server = DagnatsServer.start(settings);
        } catch (RuntimeException failed) {
            log.severe("dagnats cannot start: " + failed.getMessage());
            return 1;
        }
        stop.await();
        log.info("dagnats stopping: answering requests in flight");
        server.close();
        log.info("dagnats stopped");
        return 0;
    }
}
