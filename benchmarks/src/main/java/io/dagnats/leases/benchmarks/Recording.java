package io.dagnats.leases.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A Java Flight Recorder recording of the service during one measured window
 * ({@code scripts/bench.sh profile}): started and stopped with the JDK's
 * {@code jcmd}, written to {@code <dir>/<name>.jfr}, with the settings file in
 * BENCH_JFC (default: the JDK's "profile"). Off (does nothing) when no
 * directory is given.
 */
final class Recording {

    private final long pid;
    private final Path dir;

    /** @param dir where recordings go; null for none */
    Recording(long pid, Path dir) {
        this.pid = pid;
        this.dir = dir;
    }

    boolean on() {
        return dir != null && pid > 0;
    }

    void start(String name) throws IOException, InterruptedException {
        if (on()) {
            jcmd("JFR.start", "name=" + name, "settings=" + System.getenv().getOrDefault("BENCH_JFC", "profile"));
        }
    }

    void stop(String name) throws IOException, InterruptedException {
        if (on()) {
            Files.createDirectories(dir);
            jcmd("JFR.stop", "name=" + name, "filename=" + dir.resolve(name + ".jfr").toAbsolutePath());
        }
    }

    private void jcmd(String... command) throws IOException, InterruptedException {
        List<String> line = new java.util.ArrayList<>(List.of("jcmd", Long.toString(pid)));
        line.addAll(List.of(command));
        Process process = new ProcessBuilder(line).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (process.waitFor() != 0) {
            throw new IOException("jcmd " + String.join(" ", command) + " failed");
        }
    }
}
