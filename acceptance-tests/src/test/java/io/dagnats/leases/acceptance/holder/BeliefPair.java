package io.dagnats.leases.acceptance.holder;

import io.dagnats.leases.acceptance.harness.OwnershipLog;
import io.dagnats.leases.holder.KeptLease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Two holders in the test's own process, their own {@link KeptLease#isOwner()} answers
 * sampled side by side every 0.2 ms for a while: when both believed they owned the key, and
 * when each changed its mind. The one harness of the tests that judge two in-process holders
 * of one key this way (raw removal, twins under one id); replica processes write an
 * {@link OwnershipLog} instead.
 */
final class BeliefPair {

    private BeliefPair() {
    }

    /** Both believed they owned, from {@code offsetNanos} after sampling began, for {@code lengthNanos}. */
    record Overlap(long offsetNanos, long lengthNanos, boolean toEnd) {
        @Override
        public String toString() {
            return offsetNanos / 1_000_000 + "ms+" + (toEnd ? "(to end)" : lengthNanos / 1_000_000 + "ms");
        }
    }

    /**
     * What the sampling saw.
     *
     * @param firstStoppedNanos after sampling began, the first sample at which {@code first}
     *                          did not own; -1 if it owned throughout
     * @param changes           each change of either belief, offset from sampling's start
     */
    record Sampled(long samples, long both, List<Overlap> overlaps, long firstStoppedNanos, List<String> changes) {

        long longestOverlapNanos() {
            return overlaps.stream().mapToLong(Overlap::lengthNanos).max().orElse(0);
        }

        long overlapNanos() {
            return overlaps.stream().mapToLong(Overlap::lengthNanos).sum();
        }

        boolean overlapAtEnd() {
            return !overlaps.isEmpty() && overlaps.get(overlaps.size() - 1).toEnd();
        }

        @Override
        public String toString() {
            return "both believed they owned in " + both + " of " + samples + " samples; overlaps (offset from the"
                    + " start of sampling + length): " + overlaps + "; the first stopped "
                    + (firstStoppedNanos < 0 ? "never" : firstStoppedNanos / 1_000_000 + " ms") + " after it;"
                    + " ownership changes " + changes;
        }
    }

    /** Samples both beliefs from now for {@code during}. */
    static Sampled sample(KeptLease first, KeptLease second, Duration during) {
        long start = System.nanoTime();
        long end = start + during.toNanos();
        long samples = 0;
        long both = 0;
        long overlapFrom = -1;
        long firstStopped = -1;
        List<Overlap> overlaps = new ArrayList<>();
        List<String> changes = new ArrayList<>();
        boolean lastFirst = first.isOwner();
        boolean lastSecond = second.isOwner();
        while (System.nanoTime() < end) {
            boolean a = first.isOwner();
            boolean b = second.isOwner();
            long now = System.nanoTime();
            samples++;
            if (!a && firstStopped < 0) {
                firstStopped = now - start;
            }
            if (a != lastFirst || b != lastSecond) {
                changes.add((now - start) / 1_000_000 + "ms first=" + a + " second=" + b);
                lastFirst = a;
                lastSecond = b;
            }
            if (a && b) {
                both++;
                if (overlapFrom < 0) {
                    overlapFrom = now;
                }
            } else if (overlapFrom >= 0) {
                overlaps.add(new Overlap(overlapFrom - start, now - overlapFrom, false));
                overlapFrom = -1;
            }
            LockSupport.parkNanos(200_000);
        }
        if (overlapFrom >= 0) {
            overlaps.add(new Overlap(overlapFrom - start, end - overlapFrom, true));
        }
        return new Sampled(samples, both, overlaps, firstStopped, changes);
    }
}
