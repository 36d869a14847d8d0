package io.dagnats.leases.benchmarks;

import java.util.Arrays;

/** Latency samples of one run, and what the report needs of them. */
final class Latencies {

    private long[] samples = new long[1 << 16];
    private int count;

    synchronized void add(long nanos) {
        if (count == samples.length) {
            samples = Arrays.copyOf(samples, samples.length * 2);
        }
        samples[count++] = nanos;
    }

    /** The q-quantile in microseconds. */
    synchronized double micros(double q) {
        if (count == 0) {
            return Double.NaN;
        }
        long[] sorted = Arrays.copyOf(samples, count);
        Arrays.sort(sorted);
        int index = (int) Math.min(count - 1, Math.ceil(q * count) - 1);
        return sorted[Math.max(0, index)] / 1_000.0;
    }
}
