package io.dagnats.leases.domain;

/**
 * The answer to a handover whose successor said it waits (ADR-042): the successor's new lease, or
 * {@link Lost} exactly as a renew at the same revision would have been answered.
 */
public sealed interface Handover permits Handover.HandedOver, Lost {

    /** {@code lease} is the successor's, a new tenure at a higher fence; the caller's lease has ended. */
    record HandedOver(Lease lease) implements Handover {
    }
}
