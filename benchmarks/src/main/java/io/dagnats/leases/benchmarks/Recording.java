package io.dagnats.leases.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Java Flight Recorder recording of the service during one measured window
 * ({@code scripts/bench.sh profile}): started and stopped with the JDK's
 * {@code jcmd}, written to {@code <dir>/<name>.jfr}, with the settings file in
 * BENCH_JFC (default: the JDK's "profile"). Off (does nothing) when no
 * directory is given.
 */
final class Recording {

    /** A thread dump's thread line: its name, and its Linux thread id. */
    private static final Pattern THREAD = Pattern.compile("^\"([^\"]+)\".* nid=(0x[0-9a-f]+|[0-9]+)");

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

    /**
     * jnats' threads by thread id, named by what they run (read from a thread dump, taken outside
     * any measured window): "jnats reader", "jnats writer", "jnats dispatcher <its name>". Empty
     * when off.
     */
    Map<Long, String> jnatsThreads() throws IOException, InterruptedException {
        Map<Long, String> roles = new HashMap<>();
        if (!on()) {
            return roles;
        }
        Long thread = null;
        String name = null;
        for (String line : jcmd("Thread.print").split("\n")) {
            Matcher header = THREAD.matcher(line);
            if (header.find()) {
                name = header.group(1);
                thread = Long.decode(header.group(2));
            } else if (thread != null && !roles.containsKey(thread)) {
                String role = line.contains("NatsConnectionReader.run") ? "jnats reader"
                        : line.contains("NatsConnectionWriter.run") ? "jnats writer"
                        : line.contains("NatsDispatcher.run") ? "jnats dispatcher " + name : null;
                if (role != null) {
                    roles.put(thread, role);
                }
            }
        }
        return roles;
    }

    private String jcmd(String... command) throws IOException, InterruptedException {
        List<String> line = new java.util.ArrayList<>(List.of("jcmd", Long.toString(pid)));
        line.addAll(List.of(command));
        Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IOException("jcmd " + String.join(" ", command) + " failed");
        }
        return output;
    }
}
