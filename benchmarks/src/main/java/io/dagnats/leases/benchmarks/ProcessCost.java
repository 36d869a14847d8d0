package io.dagnats.leases.benchmarks;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a process (the service, or nats-server) spent, read from Linux's /proc:
 * CPU time summed over its threads ({@code task/N/schedstat}, nanoseconds), and
 * its threads' context switches ({@code task/N/status}), which count the thread
 * wake-ups, i.e. the hand-offs between threads, a request costs. Threads that
 * exit meanwhile drop out of the sums; the processes measured keep theirs.
 */
final class ProcessCost {

    /**
     * One reading; subtract two to get what happened between them.
     *
     * @param byThread CPU nanoseconds by kind of thread: its name with digits as N (Linux keeps
     *                 15 characters of it, so jnats' threads all read "dagnats-leases:")
     */
    record Reading(long cpuNanos, long switches, Map<String, Long> byThread) {

        Reading minus(Reading earlier) {
            Map<String, Long> spent = new TreeMap<>(byThread);
            earlier.byThread.forEach((kind, nanos) -> spent.merge(kind, -nanos, Long::sum));
            return new Reading(cpuNanos - earlier.cpuNanos, switches - earlier.switches, spent);
        }
    }

    private final long pid;

    /** @param pid 0 for none: every reading is then zero */
    ProcessCost(long pid) {
        this.pid = pid;
    }

    boolean known() {
        return pid > 0;
    }

    Reading read() {
        if (pid <= 0) {
            return new Reading(0, 0, Map.of());
        }
        long cpu = 0;
        long switches = 0;
        Map<String, Long> byThread = new TreeMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    long nanos = Long.parseLong(Files.readString(task.resolve("schedstat")).split(" ")[0]);
                    cpu += nanos;
                    byThread.merge(Files.readString(task.resolve("comm")).strip().replaceAll("[0-9]+", "N"), nanos,
                            Long::sum);
                    for (String line : Files.readAllLines(task.resolve("status"))) {
                        if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
                            switches += Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
                        }
                    }
                } catch (IOException | RuntimeException exited) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException gone) {
            return new Reading(0, 0, Map.of());
        }
        return new Reading(cpu, switches, byThread);
    }
}
