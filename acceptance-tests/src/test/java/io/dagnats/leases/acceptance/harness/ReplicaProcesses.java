package io.dagnats.leases.acceptance.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link ReplicaMain} processes of one test, each writing its {@link OwnershipLog}
 * into one directory, all killed on close. The checker reads every log there.
 */
public final class ReplicaProcesses implements AutoCloseable {

    private static final AtomicInteger COUNT = new AtomicInteger();

    private final String natsUrl;
    private final Path directory;
    private final List<Process> processes = new ArrayList<>();
    private final Map<Process, Path> logs = new ConcurrentHashMap<>();
    private final WriteTimes writeTimes;

    public ReplicaProcesses(String natsUrl) {
        this.natsUrl = natsUrl;
        this.writeTimes = WriteTimes.follow(natsUrl);
        try {
            this.directory = Files.createTempDirectory("dagnats-replicas");
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
    }

    /** Starts a replica; {@code flags} are ReplicaMain's ({@code exact}, {@code wait}, {@code handle=<ms>}). */
    public Process start(String holder, String key, Duration ttl, String... flags) {
        int number = COUNT.incrementAndGet();
        Path log = directory.resolve("ownership-" + number + ".log");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // C1 only and a serial GC: a starting replica competes less with the others for the
                // 2 cores, so its ownership sampler is starved less (each gap widens its windows).
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), ReplicaMain.class.getName(),
                natsUrl, holder, key, Long.toString(ttl.toMillis()),
                log.toString()));
        command.addAll(List.of(flags));
        try {
            Process process = new ProcessBuilder(TerminalSignals.atDefaults(command))
                    .redirectErrorStream(true)
                    .redirectOutput(directory.resolve("replica-" + number + "-" + holder + ".out").toFile())
                    .start();
            processes.add(process);
            logs.put(process, log);
            return process;
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
    }

    public static void signal(Process process, String signal) {
        try {
            new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor(10, TimeUnit.SECONDS);
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(interrupted);
        }
    }

    /** kill -9, and waits until the process is gone. */
    public static void kill(Process process) {
        signal(process, "KILL");
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(interrupted);
        }
    }

    /** What every replica believed, judged by the checker alone. */
    public OwnershipHistory history() {
        try (var files = Files.list(directory)) {
            return OwnershipHistory.fromFiles(files.filter(file -> file.getFileName().toString().endsWith(".log")).toList())
                    .startingNoEarlierThanWrites(writeTimes);
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
    }

    /**
     * How often {@code replica}'s own ownership log says it stopped owning {@code key} (a line
     * {@code free} about it): a belief that ended shows as one more, even when the replica owns
     * the key again before anyone looks.
     */
    public long timesStopped(Process replica, String key) {
        return readLines(logs.get(replica)).stream().map(line -> line.trim().split(" "))
                .filter(fields -> fields.length > 4 && fields[1].equals(key) && fields[4].equals("free")).count();
    }

    /**
     * Whether {@code replica} believes it owns {@code key} now, by its own ownership log: its
     * last line about the key says {@code own}. A paused replica's answer is its last look.
     */
    public boolean believesOwner(Process replica, String key) {
        String belief = "free";
        for (String line : readLines(logs.get(replica))) {
            String[] fields = line.trim().split(" ");
            if (fields.length > 4 && fields[1].equals(key) && (fields[4].equals("own") || fields[4].equals("free"))) {
                belief = fields[4];
            }
        }
        return belief.equals("own");
    }

    /**
     * Every forward the replicas started with {@code handle=<ms>} processed, as each wrote it
     * down on entering its handler: {@code <nanos> <incarnation> <request> <tenure-start> <fence>}.
     */
    public List<String> processedForwards() {
        List<String> all = new ArrayList<>();
        for (Path log : logs.values()) {
            all.addAll(readLines(log.resolveSibling(log.getFileName() + ".forwards")));
        }
        return all;
    }

    private static List<String> readLines(Path file) {
        try {
            return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
    }

    /** The replicas' own output, for a failure message. */
    public String output() {
        StringBuilder all = new StringBuilder();
        try (var files = Files.list(directory)) {
            for (Path file : files.sorted().toList()) {
                all.append("--- ").append(file.getFileName()).append('\n')
                        .append(Files.readString(file, StandardCharsets.UTF_8));
            }
        } catch (IOException failed) {
            all.append(failed);
        }
        return all.toString();
    }

    @Override
    public void close() {
        try {
            writeTimes.close();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        for (Process process : processes) {
            signal(process, "CONT");
            process.destroyForcibly();
        }
        for (Process process : processes) {
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
