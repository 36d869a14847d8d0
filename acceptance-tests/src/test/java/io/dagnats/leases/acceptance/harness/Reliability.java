package io.dagnats.leases.acceptance.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Figures the fault tests measure, printed and appended to target/reliability.txt for docs/reliability.md. */
public final class Reliability {

    private Reliability() {
    }

    public static void report(String scenario, String figures) {
        String line = "RELIABILITY " + scenario + ": " + figures;
        System.out.println(line);
        try {
            Path file = Path.of("target", "reliability.txt");
            Files.createDirectories(file.getParent());
            Files.writeString(file, line + System.lineSeparator(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException ignored) {
            // the printed line is enough
        }
    }
}
