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
 * By thread, it also reads the kernel's share ({@code task/N/stat}'s stime, in
 * clock ticks of 10 ms: read it over windows of seconds only).
 */
final class ProcessCost {

    /**
     * One reading; subtract two to get what happened between them.
     *
     * @param byThread       CPU nanoseconds by kind of thread: its label when {@link #read(Map)} was
     *                       given one, else its name with digits as N (Linux keeps 15 characters of
     *                       it, so jnats' threads all read "dagnats-leases:")
     * @param kernelByThread of that, the nanoseconds spent in the kernel, by the same kinds
     */
    record Reading(long cpuNanos, long switches, Map<String, Long> byThread, Map<String, Long> kernelByThread) {

        static final Reading NONE = new Reading(0, 0, Map.of(), Map.of());

        Reading minus(Reading earlier) {
            return new Reading(cpuNanos - earlier.cpuNanos, switches - earlier.switches,
                    sum(byThread, earlier.byThread, -1), sum(kernelByThread, earlier.kernelByThread, -1));
        }

        /** What two windows spent together. */
        Reading plus(Reading other) {
            return new Reading(cpuNanos + other.cpuNanos, switches + other.switches,
                    sum(byThread, other.byThread, 1), sum(kernelByThread, other.kernelByThread, 1));
        }

        private static Map<String, Long> sum(Map<String, Long> first, Map<String, Long> second, long sign) {
            Map<String, Long> spent = new TreeMap<>(first);
            second.forEach((kind, nanos) -> spent.merge(kind, sign * nanos, Long::sum));
            return spent;
        }
    }

    /** Linux's USER_HZ: /proc counts user and system time in hundredths of a second. */
    private static final long NANOS_PER_TICK = 10_000_000L;

    private final long pid;

    /** @param pid 0 for none: every reading is then zero */
    ProcessCost(long pid) {
        this.pid = pid;
    }

    boolean known() {
        return pid > 0;
    }

    Reading read() {
        return read(Map.of());
    }

    /** @param labels names to sum threads under instead of their own, by thread id */
    Reading read(Map<Long, String> labels) {
        if (pid <= 0) {
            return Reading.NONE;
        }
        long cpu = 0;
        long switches = 0;
        Map<String, Long> byThread = new TreeMap<>();
        Map<String, Long> kernelByThread = new TreeMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    long nanos = Long.parseLong(Files.readString(task.resolve("schedstat")).split(" ")[0]);
                    cpu += nanos;
                    String kind = labels.get(Long.parseLong(task.getFileName().toString()));
                    if (kind == null) {
                        kind = Files.readString(task.resolve("comm")).strip().replaceAll("[0-9]+", "N");
                    }
                    byThread.merge(kind, nanos, Long::sum);
                    // stat's fields after the name, which ends at the last ')': stime is the 13th
                    String stat = Files.readString(task.resolve("stat"));
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    kernelByThread.merge(kind, Long.parseLong(fields[12]) * NANOS_PER_TICK, Long::sum);
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
            return Reading.NONE;
        }
        return new Reading(cpu, switches, byThread, kernelByThread);
    }
}
