package io.dagnats.leases.domain;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One holder's uninterrupted ownership of a key, as the holder sees it: from
 * the acquire that granted it until release, {@code lost}, or the deadline.
 *
 * <p>The deadline is measured on the holder's own monotonic clock from when the
 * last successful renew was <em>sent</em>, less a {@linkplain #safetyMargin safety
 * margin}: the server stamped that write later, so the server's TTL runs out after
 * the deadline, never before, even when the two clocks run at slightly different
 * rates. A tenure begins only on a write the holder caused (a renew right after the
 * grant): an acquire by the current holder returns an earlier write unchanged,
 * whose TTL started before the request, so a grant alone proves no time left.
 *
 * @param start         the fence the granting acquire returned; renewals keep it
 * @param fence         the current fence, to send with every downstream write
 * @param deadlineNanos on {@link MonotonicClock}: past it, stop acting as owner
 */
public record Tenure(LeaseKey key, HolderId holder, Fence start, Fence fence, long deadlineNanos) {

    private static final Duration FIXED_MARGIN = Duration.ofMillis(100);

    /** Why a forwarded request was or was not let through to the owner's handler. */
    public enum ForwardVerdict {
        ACCEPT,
        /** Past the deadline: this holder must not act as owner. */
        REJECT_PAST_DEADLINE,
        /** The request carries no fence, or none that reads as one. */
        REJECT_BAD_FENCE,
        /** The fence is from before this tenure began. */
        REJECT_STALE_FENCE;

        public boolean accepted() {
            return this == ACCEPT;
        }
    }

    public Tenure {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(holder, "holder");
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(fence, "fence");
        if (fence.isBelow(start)) {
            throw new IllegalArgumentException("a tenure's fence " + fence + " is below its start " + start);
        }
    }

    /**
     * A tenure granted by a write whose request was sent at {@code sentAtNanos}: the
     * caller knows the write was made by that very request (a renew, or an acquire
     * that wrote), never an acquire answered with an earlier write.
     */
    public static Tenure begin(LeaseKey key, HolderId holder, Fence granted, long sentAtNanos, LeaseTtl ttl) {
        return new Tenure(key, holder, granted, granted, deadline(sentAtNanos, ttl));
    }

    /** The same tenure after a renew, sent at {@code sentAtNanos}, returned {@code renewed}. */
    public Tenure renewed(Fence renewed, long sentAtNanos, LeaseTtl ttl) {
        if (renewed.isBelow(fence)) {
            throw new IllegalArgumentException("a renew cannot lower the fence from " + fence + " to " + renewed);
        }
        return new Tenure(key, holder, start, renewed, deadline(sentAtNanos, ttl));
    }

    /**
     * How much earlier than the server's TTL a holder stops acting as owner: 1 % of
     * the TTL plus 100 ms. The 1 % covers the holder's clock running faster or slower
     * than the server's over one TTL: NTP slews a clock by at most 500 ppm (0.05 %) and
     * an undisciplined quartz oscillator drifts by about 100 ppm, so 1 % leaves a factor
     * of 20 for badly kept virtual machines. The 100 ms covers the server stamping and
     * expiring on its own timers and a holder thread that reads the clock a little late.
     */
    public static Duration safetyMargin(LeaseTtl ttl) {
        return ttl.duration().dividedBy(100).plus(FIXED_MARGIN);
    }

    private static long deadline(long sentAtNanos, LeaseTtl ttl) {
        return sentAtNanos + ttl.duration().toNanos() - safetyMargin(ttl).toNanos();
    }

    /** Whether the holder may still act as owner at {@code nowNanos}. */
    public boolean actingAsOwner(long nowNanos) {
        return nowNanos - deadlineNanos < 0;
    }

    /** Nanoseconds left before the holder must stop acting as owner; negative once past. */
    public long nanosLeft(long nowNanos) {
        return deadlineNanos - nowNanos;
    }

    /**
     * The owner-side rule for a forwarded request: only while acting as owner,
     * with a fence that is an unsigned integer at or above this tenure's start.
     *
     * @param presented the fence the request carries; empty when it carries none,
     *                  or none that reads as an unsigned 64-bit integer of 1 or more
     */
    public ForwardVerdict judgeForward(Optional<Fence> presented, long nowNanos) {
        if (!actingAsOwner(nowNanos)) {
            return ForwardVerdict.REJECT_PAST_DEADLINE;
        }
        if (presented.isEmpty()) {
            return ForwardVerdict.REJECT_BAD_FENCE;
        }
        // Fences compare unsigned: one past 2^63-1 is above any start.
        return presented.get().isBelow(start) ? ForwardVerdict.REJECT_STALE_FENCE : ForwardVerdict.ACCEPT;
    }
}
