package io.dagnats.leases.acceptance.harness;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** bootstrap/target/dagnats.jar, run as its own process the way an operator runs it. */
public final class FatJar {

    private FatJar() {
    }

    public static Path path() {
        Path jar = Path.of(System.getProperty("dagnats.jar", "../bootstrap/target/dagnats.jar"));
        assertTrue(Files.isRegularFile(jar), "build the fat JAR first (mvn verify builds it before these tests): " + jar);
        return jar;
    }

    /** {@code java -jar dagnats.jar args...} with only {@code environment}'s NATS_ and DAGNATS_ settings. */
    public static ProcessBuilder command(Map<String, String> environment, String... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", path().toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(TerminalSignals.atDefaults(command));
        builder.environment().keySet().removeIf(name -> name.startsWith("NATS_") || name.startsWith("DAGNATS_"));
        builder.environment().putAll(environment);
        return builder;
    }
}
