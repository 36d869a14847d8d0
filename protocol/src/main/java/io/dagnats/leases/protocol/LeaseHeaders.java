package io.dagnats.leases.protocol;

import io.dagnats.leases.domain.Fence;
import java.util.Optional;

/**
 * The headers of the wire contract, and the one with a syntax of its own: the
 * fence an owner receives. JetStream's own headers ({@code Nats-TTL},
 * {@code Nats-Expected-Last-Subject-Sequence}, ...) are JetStream's, not this
 * contract's, and stay with the adapter that speaks JetStream.
 */
public final class LeaseHeaders {

    /**
     * On a forward to an owner: the revision dagnats read, an unsigned decimal integer. On a
     * release or revoke write (and its change event): the fence of the lease that ended.
     */
    public static final String FENCE = "Dagnats-Lease-Fence";
    /** On an owner's reply: it did not process the request. */
    public static final String REJECT = "Dagnats-Lease-Reject";
    /** The one value an owner sends in {@link #REJECT}. */
    public static final String REJECT_STALE = "stale";
    /**
     * On every write dagnats makes, and so on every change event but an expiry:
     * {@code acquired}, {@code renewed}, {@code released}, {@code revoked} or {@code handed-over}
     * ({@link io.dagnats.leases.domain.LeaseEvent#fromWireName}).
     */
    public static final String EVENT = "Dagnats-Lease-Event";
    /** On every write dagnats makes: the holder whose lease it made, extended or ended. */
    public static final String HOLDER = "Dagnats-Lease-Holder";
    /**
     * On every write dagnats makes for a holder that sent an incarnation (so on its change
     * events), and on a forward to the owner's inbox when the lease names one: the holder's
     * incarnation. A process of the holder id whose incarnation differs does not answer the
     * forward at all.
     */
    public static final String INCARNATION = "Dagnats-Lease-Incarnation";
    /**
     * On a handover write (and its change event, {@code handed-over}) or a move of an attached key
     * ({@code moved}, ADR-043): the holder id whose lease it replaced; {@link #HOLDER} and
     * {@link #INCARNATION} name the successor (ADR-042).
     */
    public static final String FROM = "Dagnats-Lease-From";
    /** On a revoke write: the operator's reason, as sent ({@link io.dagnats.leases.domain.RevokeReason}). */
    public static final String REASON = "Dagnats-Lease-Reason";
    /**
     * On a revoke write, when known: who revoked ({@link io.dagnats.leases.domain.Revoker}, ADR-041),
     * the caller's principal in identity mode, else the request's {@code by}.
     */
    public static final String REVOKED_BY = "Dagnats-Lease-Revoked-By";
    /**
     * On a change event of an attached key (ADR-043): the member lease it is attached to
     * ({@code attached}, {@code moved}), or whose end freed it ({@code freed}). A {@code moved} event also
     * carries {@link #FROM}, the holder the key was moved from.
     */
    public static final String MEMBER = "Dagnats-Lease-Member";
    /**
     * On dagnats' grant to a successor that said yes to a handover check (ADR-046), published on the
     * same {@code dagnats.lease.candidate.<holder>.<key>} subject: the check's id, which only that
     * check carried ({@link CandidateCheck}). The body is the handover's reply. The handover's write
     * carries it too, and so its {@code handed-over} change event (ADR-047).
     */
    public static final String CHECK = "Dagnats-Lease-Check";


    /** Digits in 2^64-1; more cannot be a 64-bit value, leading zeros or not. */
    private static final int MAX_DIGITS = 20;

    private LeaseHeaders() {
    }

    /** The {@link #FENCE} value for {@code fence}: unsigned decimal, no sign, no padding. */
    public static String formatFence(Fence fence) {
        return Long.toUnsignedString(fence.revision());
    }

    /**
     * A {@link #FENCE} value as a fence: ASCII digits only (no sign, no spaces),
     * an unsigned 64-bit value of 1 or more. Values past 2^63-1 are fences too;
     * {@link Fence} compares them unsigned.
     *
     * @param value the header's value, or null when the header is missing
     * @return empty when missing, malformed, zero, or past 2^64-1
     */
    public static Optional<Fence> parseFence(String value) {
        if (value == null || value.isEmpty() || value.length() > MAX_DIGITS) {
            return Optional.empty();
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return Optional.empty();
            }
        }
        long bits;
        try {
            bits = Long.parseUnsignedLong(value);
        } catch (NumberFormatException pastTwoToThe64) {
            return Optional.empty();
        }
        return bits == 0 ? Optional.empty() : Optional.of(new Fence(bits));
    }
}
