package io.dagnats.leases.acceptance.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The safety checker: builds, from {@link OwnershipLog} lines alone, the
 * windows in which each holder believed it owned each key, and fails on two
 * holders' windows overlapping on one key, on a later owner's fence not above
 * every fence of an earlier one, or on a holder seen owning past its own deadline.
 *
 * <p>A window runs from the look before the first one that saw a tenure (the
 * earliest the belief can have begun) to the first look that no longer saw it.
 * Between that look and the last one that still saw it, the record is silent; if
 * the holder's own deadline falls there, the window ends at it: the holder promised
 * to stop then, and its log checks that promise at every look ({@code late} lines).
 * A process that was killed, or whose log just stops, is counted as owner until
 * its last deadline, the latest moment a paused process could still act. Given the
 * server's write times ({@link WriteTimes}), a start is also dated no earlier than the
 * write of its tenure's start revision. No time is computed from the holder library's arithmetic: a deadline set wrong moves the
 * end of its own window, never another holder's start.
 */
public final class OwnershipHistory {

    /** One holder process's belief that it owned {@code key}, on System.nanoTime. */
    public record Window(String key, String holder, String incarnation, long fromNanos, long toNanos, long tenureStart,
            long firstFence, long lastFence) {
        boolean overlaps(Window other) {
            return fromNanos < other.toNanos && other.fromNanos < toNanos;
        }

        @Override
        public String toString() {
            return holder + "/" + incarnation + " owned " + key + " from " + fromNanos + " to " + toNanos
                    + " (" + (toNanos - fromNanos) / 1_000_000 + " ms, fences " + firstFence + ".." + lastFence + ")";
        }
    }

    private final List<Window> windows = new ArrayList<>();
    /** Looks that saw a tenure held at or past its own deadline. */
    private final List<String> late = new ArrayList<>();
    private long longestGap;
    private int gaps;
    /** Windows whose end is their holder's deadline, inside a sampler gap. */
    private int endsInGaps;
    /** Windows whose start the server's write of their start revision dated later than the sampler. */
    private int startsByWrites;

    static OwnershipHistory fromFiles(Collection<Path> files) {
        List<String> lines = new ArrayList<>();
        for (Path file : files) {
            try {
                if (Files.exists(file)) {
                    lines.addAll(Files.readAllLines(file));
                }
            } catch (IOException unreadable) {
                throw new UncheckedIOException(unreadable);
            }
        }
        return fromLines(lines);
    }

    public static OwnershipHistory fromLines(Collection<String> lines) {
        OwnershipHistory history = new OwnershipHistory();
        Map<String, List<String[]>> byBelief = new TreeMap<>();
        for (String line : lines) {
            if (line.isBlank()) {
                continue;
            }
            String[] fields = line.trim().split(" ");
            if (fields[4].equals("gap")) {
                history.gaps++;
                history.longestGap = Math.max(history.longestGap, Long.parseLong(fields[0]) - Long.parseLong(fields[5]));
                continue;
            }
            // One holder process's samples of one key: incarnation, holder id, key.
            byBelief.computeIfAbsent(fields[3] + " " + fields[2] + " " + fields[1], ignored -> new ArrayList<>())
                    .add(fields);
        }
        for (List<String[]> samples : byBelief.values()) {
            history.addSamples(samples);
        }
        history.windows.sort(Comparator.comparingLong(Window::fromNanos));
        return history;
    }

    private void addSamples(List<String[]> samples) {
        // In the order written: one sampler thread writes each holder process's lines.
        Long from = null;
        long tenureStart = 0;
        long firstFence = 0;
        long lastFence = 0;
        long deadline = 0;
        long lastAt = 0;
        String[] last = null;
        for (String[] fields : samples) {
            last = fields;
            long at = Long.parseLong(fields[0]);
            lastAt = Math.max(lastAt, at);
            if (fields[4].equals("late")) {
                late.add(fields[2] + "/" + fields[3] + " still owned " + fields[1] + " "
                        + (at - Long.parseLong(fields[5])) / 1_000_000 + " ms past its own deadline");
                continue;
            }
            boolean own = fields[4].equals("own");
            if (from != null && (!own || Long.parseLong(fields[5]) != tenureStart)) {
                long lastSeenOwning = own ? at : Long.parseLong(fields[5]);
                windows.add(window(fields, from, end(lastSeenOwning, at, deadline), tenureStart, firstFence, lastFence));
                from = null;
            }
            if (own) {
                if (from == null) {
                    from = at;
                    tenureStart = Long.parseLong(fields[5]);
                    firstFence = Long.parseLong(fields[6]);
                }
                lastFence = Long.parseLong(fields[6]);
                deadline = Math.max(deadline, Long.parseLong(fields[7]));
            }
        }
        if (from != null) {
            windows.add(window(last, from, Math.max(deadline, lastAt), tenureStart, firstFence, lastFence));
        }
    }

    /**
     * The end of a belief last seen at {@code lastSeenOwning} and seen over at {@code seenOver}:
     * the holder's own deadline if it falls between those looks, else the look that saw it over.
     */
    private long end(long lastSeenOwning, long seenOver, long deadline) {
        if (deadline - lastSeenOwning <= 0 || seenOver - deadline <= 0) {
            return seenOver;
        }
        if (seenOver - lastSeenOwning > OwnershipLog.GAP_NANOS) {
            endsInGaps++;
        }
        return deadline;
    }

    private static Window window(String[] fields, long from, long to, long tenureStart, long firstFence,
            long lastFence) {
        return new Window(fields[1], fields[2], fields[3], from, Math.max(from, to), tenureStart, firstFence,
                lastFence);
    }

    /**
     * Starts no earlier than the server's write of each tenure's start revision, where
     * {@code times} saw it: a holder's sampler dates a start back to its last look before a
     * stall, which on a loaded machine reaches back over the previous owner's handover.
     */
    OwnershipHistory startingNoEarlierThanWrites(WriteTimes times) {
        for (int i = 0; i < windows.size(); i++) {
            Window window = windows.get(i);
            long written = times.writtenAt(window.tenureStart()).orElse(window.fromNanos());
            if (written - window.fromNanos() > 0 && window.toNanos() - written > 0) {
                windows.set(i, new Window(window.key(), window.holder(), window.incarnation(), written,
                        window.toNanos(), window.tenureStart(), window.firstFence(), window.lastFence()));
                startsByWrites++;
            }
        }
        windows.sort(Comparator.comparingLong(Window::fromNanos));
        return this;
    }

    public List<Window> windows() {
        return List.copyOf(windows);
    }

    /**
     * Fails on any two holders' windows overlapping on one key, and on any window
     * whose first fence is not above the last fence of every earlier window of that
     * key. Returns a one-line summary for the report.
     */
    public String assertSafe() {
        if (!late.isEmpty()) {
            throw new AssertionError("a holder kept owning past its own deadline: " + late);
        }
        Map<String, List<Window>> byKey = new HashMap<>();
        for (Window window : windows) {
            byKey.computeIfAbsent(window.key(), ignored -> new ArrayList<>()).add(window);
        }
        long smallestGap = Long.MAX_VALUE;
        int handovers = 0;
        for (List<Window> ofKey : byKey.values()) {
            for (int i = 0; i < ofKey.size(); i++) {
                Window later = ofKey.get(i);
                for (int j = 0; j < i; j++) {
                    Window earlier = ofKey.get(j);
                    if (!earlier.holder().equals(later.holder()) && earlier.overlaps(later)) {
                        throw new AssertionError("two owners at once for "
                                + (Math.min(earlier.toNanos(), later.toNanos()) - later.fromNanos()) / 1_000_000
                                + " ms: " + earlier + " and " + later);
                    }
                    if (later.firstFence() <= earlier.lastFence() && !sameTenure(earlier, later)) {
                        throw new AssertionError("a fence did not grow: " + earlier + " then " + later);
                    }
                }
                Window previous = i > 0 ? ofKey.get(i - 1) : null;
                if (previous != null && !previous.holder().equals(later.holder())) {
                    handovers++;
                    smallestGap = Math.min(smallestGap, later.fromNanos() - previous.toNanos());
                }
            }
        }
        return windows.size() + " ownership windows, " + handovers + " handovers between holders"
                + (handovers > 0 ? ", smallest gap between two holders " + smallestGap / 1_000_000 + " ms" : "")
                + "; " + gaps + " sampler gaps over " + OwnershipLog.GAP_NANOS / 1_000_000 + " ms (longest "
                + longestGap / 1_000_000 + " ms), " + endsInGaps + " window ends dated by the holder's deadline in one, "
                + startsByWrites + " starts dated by the server's write of their start revision";
    }

    /**
     * Fails on two holder processes' windows overlapping on one key, whatever holder id they
     * ran under. {@link #assertSafe} lets one id's processes overlap (a killed process is
     * counted as owner until its deadline while its restart keeps the lease); where every
     * process is alive, as when one under an id is paused while another runs, any overlap is
     * two processes acting as owner at once.
     */
    public void assertNoTwoProcessesAtOnce() {
        for (int i = 0; i < windows.size(); i++) {
            for (int j = 0; j < i; j++) {
                Window earlier = windows.get(j);
                Window later = windows.get(i);
                if (earlier.key().equals(later.key()) && !earlier.incarnation().equals(later.incarnation())
                        && earlier.overlaps(later)) {
                    throw new AssertionError("two processes owned " + later.key() + " at once for "
                            + (Math.min(earlier.toNanos(), later.toNanos()) - later.fromNanos()) / 1_000_000
                            + " ms: " + earlier + " and " + later);
                }
            }
        }
    }

    /** One holder id's tenure seen by two of its incarnations (a restart that kept the lease). */
    private static boolean sameTenure(Window earlier, Window later) {
        return earlier.holder().equals(later.holder()) && later.firstFence() >= earlier.lastFence();
    }
}
